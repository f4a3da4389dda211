import type { INestApplication } from '@nestjs/common';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { DEFAULT_CONFIG, type LedgerConfig, type StoreKind } from '../../src/config/ledger-config.js';
import { createLedgerApp } from '../../src/create-ledger-app.js';
import { LISTEN_BACKLOG, reservePort, type ReservedPort } from '../../src/process/reserve-port.js';
import { createAppApiKey } from '../../src/auth/create-app-api-key.js';
import type { IssuedApiKey } from '../../src/auth/api-key.js';
import type { TenantScope } from '../../src/auth/caller.js';
import { ROLES, type Role } from '../../src/auth/role.js';
import type { EventStore } from '../../src/event-store/event-store.port.js';
import { openEventStore } from '../../src/event-store/open-event-store.js';
import { PgliteEventStore } from '../../src/event-store/postgres/pglite-event-store.js';
import { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { FakeClock } from './fake-clock.js';
import { LedgerClient } from './http-client.js';
import { newPglite, pgliteMigratedSnapshot, pgliteSnapshotToTransfer } from './pglite-snapshot.js';
import { createTestDatabase } from './postgres-test-db.js';
import { doubleForTestLedger, testLedgerStore } from './eventstoredb-double/test-ledger-on-double.js';

/** A key made for a test, with a client that sends it. */
export interface TestKey extends IssuedApiKey {
  readonly client: LedgerClient;
}

/** A ledger listening on an ephemeral loopback port, with its store and a hand-moved clock. */
export interface TestLedger {
  readonly app: INestApplication;
  readonly url: string;
  /** Sends the root key: tenant `*`, every role (so tests written before auth keep working). */
  readonly client: LedgerClient;
  /** The root key's token. */
  readonly rootToken: string;
  /** Creates another key (programmatic API, not the CLI) and a client that sends it. */
  createKey(input: { tenant: TenantScope; roles: readonly Role[]; name?: string }): Promise<TestKey>;
  readonly store: EventStore;
  readonly clock: FakeClock;
  readonly config: LedgerConfig;
  close(): Promise<void>;
}

/**
 * Starts the real application over HTTP on `store`: `pglite` in memory, or `postgres` in a fresh
 * database of the local server (dropped on close), or in `overrides.databaseUrl` when given
 * (replicas sharing one database; the caller drops it), or `eventstoredb` on a fresh wire-level
 * EventStoreDB double (or at `overrides.eventStoreConnectionString`), read models in PGlite. (See
 * eventstoredb-double/test-ledger-on-double.ts, which switches a whole test file to `eventstoredb`:
 * `postgres` ledgers then keep their read models in PostgreSQL, and replicas given one
 * `databaseUrl` share one double.) Authentication is ON: a root key (tenant `*`, all roles) is
 * created and `client` sends it. Per-key rate limiting is off unless `overrides.rateLimitPerKey`
 * sets it (load tests would otherwise trip it). Background jobs (sweeper, retention) are off
 * unless `overrides` sets their intervals. A new PGlite database starts from a dump of a freshly
 * initialised cluster (./pglite-snapshot.ts) instead of running initdb — in memory, one with the
 * ledger's schemas installed (the build's initdb template holds them too); on a data directory,
 * migrations run as at a server's first start.
 */
export async function startTestLedger(
  store: StoreKind = 'pglite',
  overrides: Partial<LedgerConfig> = {},
): Promise<TestLedger> {
  const requested = store;
  store = testLedgerStore(store);
  let drop: () => Promise<void> = async () => {};
  let config: LedgerConfig = {
    ...DEFAULT_CONFIG,
    store,
    dataDir: 'memory://',
    port: 0,
    rateLimitPerKey: 0,
    // The lease sweeper and retention job would race tests that move the fake clock; tests that
    // need them call sweepOnce()/compactOnce() or set an interval.
    sweepIntervalMs: 0,
    retentionIntervalMs: 0,
    // Duplicate-claim audit windows of a second coalesce as the default's do, without a test that
    // counts recorded duplicates waiting out a 10 s window (docs/domain.md "Audit of duplicate claims").
    duplicateAuditWindowMs: 1_000,
    ...overrides,
  };
  if (requested === 'postgres' && !overrides.databaseUrl) {
    const db = await createTestDatabase();
    drop = db.drop;
    config = { ...config, databaseUrl: db.connectionString, poolSize: overrides.poolSize ?? 20 };
  }
  if (store === 'eventstoredb' && !overrides.eventStoreConnectionString) {
    const double = await doubleForTestLedger(overrides.databaseUrl);
    const dropDatabase = drop;
    drop = async () => {
      await double.release();
      await dropDatabase();
    };
    config = { ...config, eventStoreConnectionString: double.connectionString };
  }
  const eventStore = await openTestStore(config);
  const clock = new FakeClock(Date.now());
  const app = await createLedgerApp(config, {
    store: eventStore,
    sql: await readModelsInSnapshot(eventStore, config),
    clock,
    logger: process.env.LEDGER_TEST_LOG ? ['error', 'warn'] : false,
  });
  trackConnections(app.getHttpServer() as Server);
  let reserved: ReservedPort | undefined;
  try {
    // as src/main.ts listens: a bound socket with a deep accept queue (LISTEN_BACKLOG)
    reserved = await reservePort('127.0.0.1', 0);
    await app.listen(reserved.server as never, LISTEN_BACKLOG as never);
    reserved.handOver(app.getHttpServer());
  } catch (err) {
    // A start-up that fails (e.g. an invalid policy file) must not leave the store open, nor the
    // reserved port listening (the server's process exits instead; a test process goes on).
    reserved?.server.close();
    await app.close().catch(() => undefined);
    await drop();
    throw err;
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const root = await createAppApiKey(app, { tenant: '*', roles: ROLES, name: 'test-root' });
  return {
    app,
    url,
    client: new LedgerClient(url, root.token),
    rootToken: root.token,
    async createKey({ tenant, roles, name }) {
      const issued = await createAppApiKey(app, {
        tenant,
        roles,
        name: name ?? `test-${tenant}-${roles.join('+')}`,
      });
      return { ...issued, client: new LedgerClient(url, issued.token) };
    },
    store: eventStore,
    clock,
    config,
    async close() {
      await closeApp(app);
      await drop();
    },
  };
}

/**
 * The configured store; a PGlite one that is new (in memory, or a data directory without a
 * database yet) is restored from a dump (./pglite-snapshot.ts) instead of running initdb.
 */
async function openTestStore(config: LedgerConfig): Promise<EventStore> {
  if (config.store !== 'pglite') return openEventStore(config);
  const isNew = config.dataDir.startsWith('memory://') || !existsSync(join(config.dataDir, 'PG_VERSION'));
  if (!isNew) return openEventStore(config);
  // In memory: the cluster with the schemas installed. PGlite on a data directory runs in a worker
  // thread, which takes the dump's bytes; it starts as a new server's first start does (migrations).
  const loadDataDir = config.dataDir.startsWith('memory://')
    ? await pgliteMigratedSnapshot()
    : await pgliteSnapshotToTransfer();
  return PgliteEventStore.open({ dataDir: config.dataDir, loadDataDir });
}

/**
 * For an EventStoreDB ledger whose read models would live in a new in-memory PGlite: that PGlite,
 * restored from {@link pgliteSnapshot} and closed with the store (as createLedgerApp does with the
 * one it opens). Otherwise undefined: the app opens its read-model database itself.
 */
async function readModelsInSnapshot(
  store: EventStore,
  config: LedgerConfig,
): Promise<SqlExecutor | undefined> {
  if (config.store !== 'eventstoredb' || config.databaseUrl || !config.dataDir.startsWith('memory://'))
    return undefined;
  // Loaded only for this store, as the app loads it (a ledger on SQL stores never needs gRPC).
  const { EventStoreDbEventStore } =
    await import('../../src/event-store/eventstoredb/eventstoredb-event-store.js');
  if (!(store instanceof EventStoreDbEventStore)) return undefined;
  const db = await newPglite();
  store.releaseOnClose(() => db.close());
  return new PgliteExecutor(db);
}

/**
 * `app.close()`, also ending connections that hold no request while it runs. Node's `server.close()`
 * ends the connections idle at that moment only; one that goes idle later (its SSE stream just
 * ended by the shutdown) or that a client opened without sending a request yet (fetch does, e.g.
 * when a subscription is aborted while it connects) stays open until the client drops it or
 * `headersTimeout` (60 s) ends it — test files with subscriptions took a minute longer.
 */
async function closeApp(app: INestApplication): Promise<void> {
  const server = app.getHttpServer() as Server;
  const sweep = setInterval(() => {
    server.closeIdleConnections();
    for (const socket of connectionsOf(server)) if (socket.bytesRead === 0) socket.destroy();
  }, 20);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

const connections = new WeakMap<Server, Set<Socket>>();

/** Tracks the server's open connections (from now on) for {@link closeApp}. */
function trackConnections(server: Server): void {
  const open = new Set<Socket>();
  connections.set(server, open);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

function connectionsOf(server: Server): Set<Socket> {
  return connections.get(server) ?? new Set();
}
