// Scenario P1 "No gaps, no double counting" on PostgreSQL (see support/p1-scenario.ts).
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';
import { runP1 } from './support/p1-scenario.js';

describe('P1 no gaps, no double counting — PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('ledger_p1');
  });
  afterAll(() => db?.drop());

  it('projects thousands of operations exactly across a crash mid catch-up; re-apply and rebuild change nothing', async () => {
    const store = await PostgresEventStore.open({ connectionString: db.connectionString, poolSize: 8 });
    try {
      await runP1({ store, cleanup: () => store.close() }, { seeded: 2400, arriving: 400 });
    } finally {
      await store.close();
    }
  }, 120_000);
});
