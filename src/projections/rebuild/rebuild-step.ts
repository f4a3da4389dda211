import { applyShadowBatch, type BeforeCommitHook } from '../core/apply-batch.js';
import { checkpointStore } from '../core/checkpoint-store.js';
import { swapGeneration } from '../core/generation-tables.js';
import type { ReadAll } from '../core/page-cache.js';
import type { ProjectionDatabase } from '../core/projection-database.js';
import type { ReadModel } from '../core/read-model.js';

/** Result of one {@link rebuildStep}: nothing to do, a shadow batch applied, or swapped in. */
export type RebuildStepResult = 'idle' | 'progressed' | 'swapped';

/**
 * One step of an online rebuild, between live batches: applies up to `batchSize` events to the
 * shadow tables, or swaps them in once caught up with the live checkpoint.
 */
export async function rebuildStep(
  readAll: ReadAll,
  db: ProjectionDatabase,
  model: ReadModel,
  batchSize: number,
  beforeCommit?: BeforeCommitHook,
): Promise<RebuildStepResult> {
  const record = await checkpointStore.load(db.executor, model.name);
  if (!record || record.rebuildGeneration === null) return 'idle';
  const generation = record.rebuildGeneration;
  const from = record.rebuildPosition ?? -1n;
  const events = from >= record.position ? [] : await readAll(from, batchSize);
  const due = events.filter((e) => e.globalPosition <= record.position);
  if (due.length > 0) {
    const prepared = model.prepare ? await model.prepare(due) : undefined;
    await applyShadowBatch(db.executor, model, due, generation, prepared, beforeCommit);
    return 'progressed';
  }
  const swapped = await db.executor.transaction(async (tx) => {
    const locked = await checkpointStore.lock(tx, model.name);
    if (locked.rebuildGeneration !== generation || locked.position !== record.position) return false;
    await swapGeneration(tx, model, locked);
    return true;
  });
  return swapped ? 'swapped' : 'progressed';
}
