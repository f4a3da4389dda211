// A DATABASE_URL naming several hosts: the pool and dedicated sessions skip a host that refuses
// connections and land on the first one that accepts a read-write session (docs/production-ha.md).
// The promoted-standby case runs in test/fault/failover.fault.spec.ts.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { EventStoreUnavailableError } from '../../src/event-store/event-store.port.js';
import { newSession } from '../../src/event-store/postgres/pg-host-target.js';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise((ok) => server.close(ok));
  return port;
}

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase('ledger_hosts');
});
afterAll(() => db.drop());

const withHosts = (hosts: string, attrs = 'read-write') => {
  const url = new URL(db.connectionString);
  return `postgres://${url.username}@${hosts}${url.pathname}?target_session_attrs=${attrs}`;
};

it('skips a host that refuses connections and appends on the next one, pool and sessions alike', async () => {
  const dead = await closedPort();
  const store = await PostgresEventStore.open({
    connectionString: withHosts(`127.0.0.1:${dead},127.0.0.1:5432`),
    poolSize: 2,
  });
  try {
    await store.append('host-target-1', [{ id: randomUUID(), type: 'Probed', data: { n: 1 } }], 'no_stream');
    expect((await store.read('host-target-1')).map((e) => e.type)).toEqual(['Probed']);
    const session = newSession({ ...store.executor.pool.options, statement_timeout: 0 });
    await session.connect();
    try {
      const { rows } = await session.query<{ port: number }>('select inet_server_port() as port');
      expect(rows[0]!.port).toBe(5432);
    } finally {
      await session.end();
    }
  } finally {
    await store.close();
  }
});

it('answers EventStoreUnavailableError naming every host when none can be reached', async () => {
  const [a, b] = [await closedPort(), await closedPort()];
  await expect(
    PostgresEventStore.open({ connectionString: withHosts(`127.0.0.1:${a},127.0.0.1:${b}`), poolSize: 1 }),
  ).rejects.toThrow(EventStoreUnavailableError);
  await expect(
    PostgresEventStore.open({ connectionString: withHosts(`127.0.0.1:${a},127.0.0.1:${b}`), poolSize: 1 }),
  ).rejects.toThrow(new RegExp(`127.0.0.1:${a} .*; 127.0.0.1:${b} `));
});
