// Scenario P1 "No gaps, no double counting" on embedded PGlite (see support/p1-scenario.ts).
import { PgliteEventStore } from '../../src/event-store/postgres/pglite-event-store.js';
import { pgliteSnapshot } from '../support/pglite-snapshot.js';
import { runP1 } from './support/p1-scenario.js';

describe('P1 no gaps, no double counting — PGlite', () => {
  it('projects thousands of operations exactly across a crash mid catch-up; re-apply and rebuild change nothing', async () => {
    const store = await PgliteEventStore.open({ loadDataDir: await pgliteSnapshot() });
    try {
      await runP1({ store, cleanup: () => store.close() }, { seeded: 1500, arriving: 300 });
    } finally {
      await store.close();
    }
  }, 120_000);
});
