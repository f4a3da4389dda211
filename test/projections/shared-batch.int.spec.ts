// Read models at the same checkpoint share ONE transaction per batch (src/projections/core/apply-shared-batch.ts).
import { randomBytes } from 'node:crypto';
import type { RecordedEvent } from '../../src/event-store/event-store.port.js';
import { PgliteEventStore } from '../../src/event-store/postgres/pglite-event-store.js';
import { applyLiveBatch } from '../../src/projections/core/apply-batch.js';
import { applySharedBatch } from '../../src/projections/core/apply-shared-batch.js';
import { installReadModel } from '../../src/projections/core/generation-tables.js';
import { projectionDatabaseFor } from '../../src/projections/core/open-projection-database.js';
import type { ProjectionDatabase } from '../../src/projections/core/projection-database.js';
import { installProjectionSchema } from '../../src/projections/core/projection-schema.js';
import type { ReadModel } from '../../src/projections/core/read-model.js';
import { createReadModels } from '../../src/projections/read-models.js';
import { pgliteSnapshot } from '../support/pglite-snapshot.js';
import { readEverything } from './support/oracle.js';
import { seedOperations } from './support/seed-operations.js';
import { checkpoints, countRows, snapshotReadModels } from './support/snapshot.js';

describe('read models sharing one batch transaction', () => {
  let store: PgliteEventStore;
  let db: ProjectionDatabase;
  let models: ReadModel[];
  let events: RecordedEvent[];

  beforeAll(async () => {
    store = await PgliteEventStore.open({ loadDataDir: await pgliteSnapshot() });
    db = projectionDatabaseFor(store.executor);
    models = createReadModels(store);
    await installProjectionSchema(store.executor);
    for (const model of models) await installReadModel(store.executor, model);
    await seedOperations(store, randomBytes(3).toString('hex'), 0, 40);
    events = await readEverything(store);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
    await store?.close();
  });

  /** Empties every read model and puts the checkpoints back before the first event. */
  async function reset(): Promise<void> {
    for (const view of [
      'ledger_rm_operations',
      'ledger_rm_review_queue',
      'ledger_rm_metrics',
      'ledger_rm_conflicts',
    ])
      await store.executor.query(`delete from ${view}`);
    await store.executor.query('update ledger_projections set position = -1, last_event_at = null');
  }

  /** Every feed of every tenant from the start, as the subscriptions read them, as text. */
  async function feedChanges(): Promise<string[]> {
    const tenants = [...new Set(events.map((e) => (e.data as { tenant?: string }).tenant))].filter(
      (t): t is string => typeof t === 'string',
    );
    const lines: string[] = [];
    for (const model of models)
      for (const feed of model.feeds)
        for (const tenant of tenants.sort())
          for (const c of await model.readFeed(store.executor, feed, tenant, -1n, 10_000))
            lines.push(`${feed} ${c.position} ${tenant} ${c.type} ${JSON.stringify(c.data)}`);
    return lines;
  }

  it('writes no change log: a batch writes the read models and checkpoints only', async () => {
    await reset();
    await applySharedBatch(db, models, events, 'test');
    const { rows } = await store.executor.query<{ gone: boolean }>(
      `select to_regclass('ledger_projection_changes') is null as gone`,
    );
    expect(rows[0]!.gone).toBe(true);
    // Every operation reaches the status feed once, at its row's last position.
    const status = await feedChanges();
    const operations = status.filter((line) => line.startsWith('operations '));
    expect(operations).toHaveLength(40);
  });

  it('a failure in one read model rolls back the others and every checkpoint', async () => {
    await reset();
    const attempt = applySharedBatch(db, models, events, 'test', async ({ model }) => {
      if (model === 'metrics') throw new Error('metrics failed in the middle of the batch');
    });
    await expect(attempt).rejects.toThrow('metrics failed');
    // Nothing of the batch is visible: not the operations rows written before metrics failed,
    // not their feed changes, not any checkpoint.
    expect(await countRows(store.executor, 'ledger_rm_operations')).toBe(0);
    expect(await countRows(store.executor, 'ledger_rm_metrics')).toBe(0);
    expect(await feedChanges()).toEqual([]);
    expect(await checkpoints(store.executor)).toEqual({ operations: -1n, metrics: -1n, conflicts: -1n });

    const outcome = await applySharedBatch(db, models, events, 'test');
    const head = events[events.length - 1]!.globalPosition;
    expect(Object.fromEntries([...outcome].map(([name, o]) => [name, o.position]))).toEqual({
      operations: head,
      metrics: head,
      conflicts: head,
    });
    expect(await checkpoints(store.executor)).toEqual({ operations: head, metrics: head, conflicts: head });
    expect(await countRows(store.executor, 'ledger_rm_operations')).toBe(40);
  });

  it('one shared batch writes exactly the rows and feeds of event-by-event batches', async () => {
    await reset();
    for (const event of events) for (const model of models) await applyLiveBatch(db, model, [event], 'test');
    const oneByOne = await snapshotReadModels(store.executor);
    const oneByOneChanges = await feedChanges();
    expect(oneByOne.ledger_rm_operations).toHaveLength(40);

    await reset();
    await applySharedBatch(db, models, events, 'test');
    expect(await snapshotReadModels(store.executor)).toEqual(oneByOne);
    expect(await feedChanges()).toEqual(oneByOneChanges);
  });

  it('read models at different checkpoints apply only the events after their own', async () => {
    await reset();
    const middle = events[Math.floor(events.length / 2)]!.globalPosition;
    await applyLiveBatch(
      db,
      models[0]!,
      events.filter((e) => e.globalPosition <= middle),
      'test',
    );
    const outcome = await applySharedBatch(db, models, events, 'test');
    expect(outcome.get(models[0]!.name)!.applied).toBe(
      events.filter((e) => e.globalPosition > middle).length,
    );
    expect(outcome.get(models[1]!.name)!.applied).toBe(events.length);
    const shared = await snapshotReadModels(store.executor);

    await reset();
    await applySharedBatch(db, models, events, 'test');
    expect(await snapshotReadModels(store.executor)).toEqual(shared);
  });
});
