import type { RecordedEvent } from '../../event-store/event-store.port.js';
import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { checkpointStore } from './checkpoint-store.js';
import type { ProjectionDatabase } from './projection-database.js';
import { type ReadModel, tableNames } from './read-model.js';

/** Test hook: runs inside the batch transaction after the read model was written, before commit. */
export type BeforeCommitHook = (info: {
  readonly model: string;
  readonly shadow: boolean;
  readonly events: number;
}) => void | Promise<void>;

/** What one batch did. */
export interface BatchOutcome {
  /** Events applied (0 when every event was at or before the stored checkpoint). */
  readonly applied: number;
  /** The checkpoint after the batch. */
  readonly position: bigint;
}

/**
 * Applies `events` (global order) to the LIVE tables of `model` in ONE transaction with the
 * checkpoint: locks the checkpoint row, keeps only events after it (so an overlapping or repeated
 * batch never applies an event twice), applies, advances the checkpoint and announces the
 * changes (the feeds read the rows themselves). A failure rolls all of it back.
 */
export async function applyLiveBatch(
  db: ProjectionDatabase,
  model: ReadModel,
  events: readonly RecordedEvent[],
  holder: string,
  beforeCommit?: BeforeCommitHook,
): Promise<BatchOutcome> {
  const prepared = model.prepare ? await model.prepare(events) : undefined;
  return db.executor.transaction(async (tx) => {
    const record = await checkpointStore.lock(tx, model.name);
    const fresh = events.filter((e) => e.globalPosition > record.position);
    if (fresh.length === 0) return { applied: 0, position: record.position };
    const changes = await model.apply(tx, fresh, tableNames(model, record.generation), prepared);
    const last = fresh[fresh.length - 1]!;
    await checkpointStore.advance(tx, model.name, last.globalPosition, last.recordedAt, holder);
    if (changes.length > 0) await db.announceInTransaction(tx, model.name);
    await beforeCommit?.({ model: model.name, shadow: false, events: fresh.length });
    return { applied: fresh.length, position: last.globalPosition };
  });
}

/**
 * Applies `events` to the SHADOW tables of a rebuild in one transaction with the shadow
 * checkpoint. Only events after the shadow checkpoint and at or before the live checkpoint are
 * applied: the shadow tables stop exactly where the live ones are, so the swap loses nothing and
 * the feeds (read from the live tables, whose rows carry the same positions) continue without a gap.
 * @returns null when the rebuild was cancelled or swapped meanwhile.
 */
export async function applyShadowBatch(
  executor: SqlExecutor,
  model: ReadModel,
  events: readonly RecordedEvent[],
  generation: number,
  prepared: unknown,
  beforeCommit?: BeforeCommitHook,
): Promise<BatchOutcome | null> {
  return executor.transaction(async (tx) => {
    const record = await checkpointStore.lock(tx, model.name);
    if (record.rebuildGeneration !== generation || record.rebuildPosition === null) return null;
    const from = record.rebuildPosition;
    const fresh = events.filter((e) => e.globalPosition > from && e.globalPosition <= record.position);
    if (fresh.length === 0) return { applied: 0, position: from };
    await model.apply(tx, fresh, tableNames(model, generation), prepared);
    const last = fresh[fresh.length - 1]!;
    await checkpointStore.advanceRebuild(tx, model.name, last.globalPosition);
    await beforeCommit?.({ model: model.name, shadow: true, events: fresh.length });
    return { applied: fresh.length, position: last.globalPosition };
  });
}
