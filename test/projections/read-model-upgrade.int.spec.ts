// Read-model tables created by an older version get the columns the feeds read when a newer
// version installs them (ReadModel.upgradeTables, src/projections/core/generation-tables.ts).
import { randomBytes } from 'node:crypto';
import { PgliteEventStore } from '../../src/event-store/postgres/pglite-event-store.js';
import { applySharedBatch } from '../../src/projections/core/apply-shared-batch.js';
import { installReadModel } from '../../src/projections/core/generation-tables.js';
import { projectionDatabaseFor } from '../../src/projections/core/open-projection-database.js';
import { installProjectionSchema } from '../../src/projections/core/projection-schema.js';
import { createReadModels } from '../../src/projections/read-models.js';
import { pgliteSnapshot } from '../support/pglite-snapshot.js';
import { readEverything } from './support/oracle.js';
import { seedOperations } from './support/seed-operations.js';
import { countRows } from './support/snapshot.js';

it('tables without the feed columns are upgraded at install, and their feeds then work', async () => {
  const store = await PgliteEventStore.open({ loadDataDir: await pgliteSnapshot() });
  const db = projectionDatabaseFor(store.executor);
  try {
    const models = createReadModels(store);
    await installProjectionSchema(store.executor);
    for (const model of models) await installReadModel(store.executor, model);
    await seedOperations(store, randomBytes(3).toString('hex'), 0, 30);
    await applySharedBatch(db, models, await readEverything(store), 'test');
    // The tables as the previous version created them.
    await store.executor.exec(`
      drop view ledger_rm_operations; drop view ledger_rm_metrics;
      alter table ledger_rm_operations_g1 drop column last_event, drop column review_position, drop column review_previous;
      alter table ledger_rm_metrics_g1 drop column last_event, drop column last_incremented;
      create view ledger_rm_operations as select * from ledger_rm_operations_g1;
      create view ledger_rm_metrics as select * from ledger_rm_metrics_g1;`);
    for (const model of models) await installReadModel(store.executor, model);
    // Operations with review entries are marked, so the next batch reads their entries.
    const unmarked = await store.executor.query<{ n: number }>(
      `select count(*)::int as n from ledger_rm_review_queue q join ledger_rm_operations o using (operation_id)
        where o.review_position is null`,
    );
    expect(Number(unmarked.rows[0]!.n)).toBe(0);
    expect(await countRows(store.executor, 'ledger_rm_review_queue')).toBeGreaterThan(0);

    const old = await readEverything(store);
    const from = old[old.length - 1]!.globalPosition;
    await seedOperations(store, randomBytes(3).toString('hex'), 30, 35);
    const events = (await readEverything(store)).filter((e) => e.globalPosition > from);
    await applySharedBatch(db, models, events, 'test');
    const tenants = new Set(events.map((e) => (e.data as { tenant?: string }).tenant).filter(Boolean));
    const operations = models.find((m) => m.name === 'operations')!;
    const metrics = models.find((m) => m.name === 'metrics')!;
    const status = [];
    const counted = [];
    for (const tenant of tenants) {
      status.push(...(await operations.readFeed(store.executor, 'operations', tenant!, from, 100)));
      counted.push(...(await metrics.readFeed(store.executor, 'metrics', tenant!, from, 100)));
    }
    expect(status).toHaveLength(5);
    expect(status.every((c) => typeof c.data.event === 'string')).toBe(true);
    expect(counted.length).toBeGreaterThan(0);
    expect(counted.every((c) => typeof c.data.event === 'string')).toBe(true);
  } finally {
    await db.close();
    await store.close();
  }
}, 60_000);
