import type { INestApplication } from '@nestjs/common';
import { DEFAULT_CONFIG, type LedgerConfig, type StoreKind } from '../src/config/ledger-config.js';
import { createLedgerApp } from '../src/create-ledger-app.js';
import { openEventStore } from '../src/event-store/open-event-store.js';
import { PgliteEventStore } from '../src/event-store/postgres/pglite-event-store.js';
import { IdempotencyTableBaseline } from './baseline-idempotency-table.js';
import { PostgresCpuMeter } from './postgres-cpu.js';
import { createBenchDatabase, postgresVersion, type BenchDatabase } from './postgres-bench-db.js';

/** The ledger app and the baseline of one store, ready to measure, and how to tear them down. */
export interface BenchStore {
  readonly kind: StoreKind;
  /** The ledger, initialised (handlers registered) but not listening. */
  readonly app: INestApplication;
  readonly config: LedgerConfig;
  readonly baseline: IdempotencyTableBaseline;
  /** What ran, e.g. `PostgreSQL (fresh database per run), PostgreSQL 15.20 (Debian …)`. */
  readonly description: string;
  /** CPU meter of the database's backends (local PostgreSQL only), else null. */
  readonly cpuMeter: PostgresCpuMeter | null;
  /** Closes the app (and its store), the baseline, and drops the database. */
  close(): Promise<void>;
}

/** `PostgreSQL 15.20 (Debian 15.20-0+deb12u1) on x86_64-pc-linux-gnu, …` → the part before " on ". */
function shortVersion(version: string): string {
  const cut = version.indexOf(' on ');
  return cut > 0 ? version.slice(0, cut) : version;
}

/**
 * Starts the ledger on `kind` — PostgreSQL in a fresh database created through `pgUrl` (the
 * baseline gets its own pool of `poolSize` in the same database), or in-memory PGlite (the
 * baseline's table lives in the same instance) — with the default configuration except: pool
 * size `poolSize`, an ephemeral port, per-key rate limiting off (authentication stays on), and
 * the in-process projectors only when `projector`.
 * @throws the connection error when PostgreSQL cannot be reached.
 */
export async function openBenchStore(
  kind: StoreKind,
  pgUrl: string,
  poolSize: number,
  projector: boolean,
): Promise<BenchStore> {
  let db: BenchDatabase | null = null;
  let config: LedgerConfig = {
    ...DEFAULT_CONFIG,
    store: kind,
    dataDir: 'memory://',
    port: 0,
    poolSize,
    // One bench key would be throttled at the default 2000 requests/s.
    rateLimitPerKey: 0,
    projector,
  };
  if (kind === 'postgres') {
    db = await createBenchDatabase(pgUrl);
    config = { ...config, databaseUrl: db.connectionString };
  }
  try {
    const store = await openEventStore(config);
    const app = await createLedgerApp(config, { store, logger: false });
    await app.init(); // registers the command handlers, which the in-process driver needs
    let baseline: IdempotencyTableBaseline;
    let cpuMeter: PostgresCpuMeter | null = null;
    let description: string;
    if (store instanceof PgliteEventStore) {
      baseline = await IdempotencyTableBaseline.onPglite(store.executor.db);
      const { rows } = await store.executor.db.query<{ version: string }>('select version()');
      description = `PGlite (in memory, one instance for ledger and baseline), ${shortVersion(rows[0]!.version)}`;
    } else {
      baseline = await IdempotencyTableBaseline.onPostgres(db!.connectionString, poolSize);
      cpuMeter = await PostgresCpuMeter.open(db!.connectionString);
      const version = shortVersion(await postgresVersion(db!.connectionString));
      description = `PostgreSQL (fresh database per run, same server for ledger and baseline), ${version}`;
    }
    return {
      kind,
      app,
      config,
      baseline,
      description,
      cpuMeter,
      async close() {
        await cpuMeter?.close();
        await baseline.close();
        await app.close();
        await db?.drop();
      },
    };
  } catch (error) {
    await db?.drop();
    throw error;
  }
}
