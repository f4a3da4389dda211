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
 * Applies `events` to the live tables of `model` in one transaction with its checkpoint, only
 * those after the locked checkpoint (a repeated batch applies nothing twice).
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
 * Applies `events` to a rebuild's shadow tables, none past the live checkpoint, so the swap loses
 * nothing and the feeds continue without a gap.
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
