import type { RecordedEvent } from '../../event-store/event-store.port.js';
import type { BatchOutcome, BeforeCommitHook } from './apply-batch.js';
import { checkpointStore } from './checkpoint-store.js';
import type { ProjectionDatabase } from './projection-database.js';
import { type ReadModel, tableNames } from './read-model.js';

/**
 * {@link applyLiveBatch} for several read models in one transaction, so a batch costs one
 * transaction whatever their number; each applies only the events after its own checkpoint. A
 * failure in any rolls all of it back.
 * @returns what each read model's part did, by name.
 */
export async function applySharedBatch(
  db: ProjectionDatabase,
  models: readonly ReadModel[],
  events: readonly RecordedEvent[],
  holder: string,
  beforeCommit?: BeforeCommitHook,
): Promise<Map<string, BatchOutcome>> {
  const prepared = new Map<string, unknown>();
  for (const model of models) if (model.prepare) prepared.set(model.name, await model.prepare(events));
  return db.executor.transaction(async (tx) => {
    const records = await checkpointStore.lockMany(
      tx,
      models.map((m) => m.name),
    );
    const outcomes = new Map<string, BatchOutcome>();
    const moves: { name: string; position: bigint; lastEventAt: Date }[] = [];
    const announced: string[] = [];
    for (const model of models) {
      const record = records.get(model.name)!;
      const fresh = events.filter((e) => e.globalPosition > record.position);
      if (fresh.length === 0) {
        outcomes.set(model.name, { applied: 0, position: record.position });
        continue;
      }
      const names = tableNames(model, record.generation);
      const own = await model.apply(tx, fresh, names, prepared.get(model.name));
      if (own.length > 0) announced.push(model.name);
      const last = fresh[fresh.length - 1]!;
      moves.push({ name: model.name, position: last.globalPosition, lastEventAt: last.recordedAt });
      outcomes.set(model.name, { applied: fresh.length, position: last.globalPosition });
    }
    await checkpointStore.advanceMany(tx, moves, holder);
    for (const name of announced) await db.announceInTransaction(tx, name);
    for (const model of models) {
      const applied = outcomes.get(model.name)!.applied;
      if (applied > 0) await beforeCommit?.({ model: model.name, shadow: false, events: applied });
    }
    return outcomes;
  });
}
