// An idle projector only polls, cheaply: one checkpoint read and one page read for all read
// models, no checkpoint lock, no transaction, no busy loop (src/projections/core/projector.ts).
import { randomBytes } from 'node:crypto';
import { jest } from '@jest/globals';
import { PgliteEventStore } from '../../src/event-store/postgres/pglite-event-store.js';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { createProjectionRuntime } from '../../src/projections/create-projection-runtime.js';
import { READ_MODEL_NAMES } from '../../src/projections/read-models.js';
import { pgliteSnapshot } from '../support/pglite-snapshot.js';
import { seedOperations } from './support/seed-operations.js';
import { waitForCaughtUp } from './support/wait-for.js';

/** `sql` with every statement and transaction it runs counted. */
function counting(sql: SqlExecutor) {
  const seen = { statements: 0, transactions: 0, locks: 0 };
  const note = (text: string) => {
    seen.statements++;
    if (/for update/i.test(text)) seen.locks++;
  };
  const executor: SqlExecutor = {
    query: (text, params) => (note(text), sql.query(text, params)),
    queryPrepared: (name, text, params) => (note(text), sql.queryPrepared(name, text, params)),
    exec: (script) => (note(script), sql.exec(script)),
    transaction: (fn, options) => {
      seen.transactions++;
      return sql.transaction(fn, options);
    },
  };
  return { executor, seen };
}

describe('an idle projector', () => {
  it('polls without locking a checkpoint or opening a transaction, and does not spin', async () => {
    const store = await PgliteEventStore.open({ loadDataDir: await pgliteSnapshot() });
    const { executor, seen } = counting(store.executor);
    const runtime = createProjectionRuntime(store, executor, {
      instanceId: 'idle',
      pollMs: 50,
      minIntervalMs: 100, // so at most 10 polls a second
    });
    const pageReads = jest.spyOn(store, 'readAll');
    try {
      await seedOperations(store, randomBytes(3).toString('hex'), 0, 20);
      await runtime.start();
      await waitForCaughtUp(store, store.executor, READ_MODEL_NAMES);
      await new Promise((r) => setTimeout(r, 200)); // the last batch's state and heartbeat written
      const before = { ...seen };
      const readsBefore = pageReads.mock.calls.length;
      await new Promise((r) => setTimeout(r, 1000)); // at most 10 polls (+1 under way)
      expect(seen.transactions - before.transactions).toBe(0);
      expect(seen.locks - before.locks).toBe(0);
      // A poll is ONE checkpoint read and ONE page read for all three read models (not one each);
      // a spinning loop would run thousands a second. Besides polls: at most one heartbeat per
      // read model.
      expect(pageReads.mock.calls.length - readsBefore).toBeLessThanOrEqual(11);
      expect(seen.statements - before.statements).toBeLessThanOrEqual(11 + 3);
    } finally {
      await runtime.stop();
      await store.close();
    }
  }, 60_000);
});
