// Batch work (a reconciliation's set-based phases over a million rows) must not be cut by the
// store's statement timeout, which bounds the claim path: with it, a phase statement longer than
// 10 s failed as "store unavailable" and the run was retried from that phase forever.
import { EventStoreUnavailableError } from '../../src/event-store/event-store.port.js';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store.js';
import { longStatements } from '../../src/event-store/sql/long-statements.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';

let db: TestDatabase;
let store: PostgresEventStore;
beforeAll(async () => {
  db = await createTestDatabase();
  // Server-side statement timeout 200 ms, client read timeout 200 + 300 ms.
  store = await PostgresEventStore.open({
    connectionString: db.connectionString,
    statementTimeoutMs: 200,
    connectionTimeoutMs: 300,
  });
});
afterAll(async () => {
  await store?.close();
  await db?.drop();
});

/** A statement that takes 0.8 s: past both the server's and the client's timeout. */
const SLOW = 'select pg_sleep(0.8) is null as slept';

it('cuts a statement at the store timeout', async () => {
  await expect(store.executor.query(SLOW)).rejects.toBeInstanceOf(EventStoreUnavailableError);
});

it('lets each statement of a transaction opened with statementTimeoutMs run that long', async () => {
  const rows = await store.executor.transaction(
    async (tx) => [...(await tx.query(SLOW)).rows, ...(await tx.query(SLOW)).rows],
    { statementTimeoutMs: 5000 },
  );
  expect(rows).toEqual([{ slept: false }, { slept: false }]);
  // The pool's connections keep the store timeout afterwards.
  await expect(store.executor.query(SLOW)).rejects.toBeInstanceOf(EventStoreUnavailableError);
});

it('longStatements runs single statements and transactions with the long timeout, still bounded by it', async () => {
  const batch = longStatements(store.executor, 5000);
  expect((await batch.query(SLOW)).rows).toEqual([{ slept: false }]);
  expect(await batch.transaction(async (tx) => (await tx.query(SLOW)).rows)).toEqual([{ slept: false }]);
  await expect(longStatements(store.executor, 300).query(SLOW)).rejects.toBeInstanceOf(
    EventStoreUnavailableError,
  );
});
