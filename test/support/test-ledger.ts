import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import { DEFAULT_CONFIG, type LedgerConfig, type StoreKind } from '../../src/config/ledger-config.js';
import { createLedgerApp } from '../../src/create-ledger-app.js';
import type { EventStore } from '../../src/event-store/event-store.port.js';
import { openEventStore } from '../../src/event-store/open-event-store.js';
import { FakeClock } from './fake-clock.js';
import { LedgerClient } from './http-client.js';
import { createTestDatabase } from './postgres-test-db.js';

/** A ledger listening on an ephemeral loopback port, with its store and a hand-moved clock. */
export interface TestLedger {
  readonly app: INestApplication;
  readonly url: string;
  readonly client: LedgerClient;
  readonly store: EventStore;
  readonly clock: FakeClock;
  readonly config: LedgerConfig;
  close(): Promise<void>;
}

/**
 * Starts the real application over HTTP on `store`: `pglite` in memory, or `postgres` in a fresh
 * database of the local server (dropped on close), or in `overrides.databaseUrl` when given
 * (replicas sharing one database; the caller drops it).
 */
export async function startTestLedger(
  store: StoreKind = 'pglite',
  overrides: Partial<LedgerConfig> = {},
): Promise<TestLedger> {
  let drop: () => Promise<void> = async () => {};
  let config: LedgerConfig = { ...DEFAULT_CONFIG, store, dataDir: 'memory://', port: 0, ...overrides };
  if (store === 'postgres' && !overrides.databaseUrl) {
    const db = await createTestDatabase();
    drop = db.drop;
    config = { ...config, databaseUrl: db.connectionString, poolSize: overrides.poolSize ?? 20 };
  }
  const eventStore = await openEventStore(config);
  const clock = new FakeClock(Date.now());
  const app = await createLedgerApp(config, {
    store: eventStore,
    clock,
    logger: process.env.LEDGER_TEST_LOG ? ['error', 'warn'] : false,
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    app,
    url,
    client: new LedgerClient(url),
    store: eventStore,
    clock,
    config,
    async close() {
      await app.close();
      await drop();
    },
  };
}
