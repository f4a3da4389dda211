import type { ArchiveOperation } from './commands.js';
import { accept, type Decision } from './decision.js';
import { eventBaseOf, withBase } from './event-base.js';
import type { ArchivedSnapshot } from './events.js';
import type { OperationState } from './operation-state.js';

/** Answer of the retention decision: whether a tombstone was recorded. */
export interface ArchiveResult {
  readonly archived: boolean;
}

const FINISHED = new Set(['confirmed', 'abandoned', 'rejected']);

function finished(state: OperationState): state is OperationState & { status: ArchivedSnapshot['status'] } {
  return FINISHED.has(state.status) || (state.status === 'failed' && state.retryable === false);
}

/**
 * Retention (docs/domain.md "Retention"): a finished operation (confirmed, final failure, abandoned,
 * rejected) whose last change is older than `retentionMs` gets an `OperationArchived` tombstone;
 * the store then truncates everything before it. Live work — in progress (a lease, however
 * expired), unknown, awaiting approval, released or retryable failures — is never archived, and
 * neither is an operation with an unacknowledged duplicate effect (it is still under review).
 */
export function decideArchive(cmd: ArchiveOperation, state: OperationState): Decision<ArchiveResult> {
  const updated = state.updatedAt ? Date.parse(state.updatedAt) : Number.POSITIVE_INFINITY;
  const openDuplicate = state.duplicateEffects.some((d) => !d.acknowledged);
  if (state.archived || !finished(state) || openDuplicate || cmd.now - updated < cmd.retentionMs) {
    return accept({ archived: false });
  }
  return accept({ archived: true }, [
    {
      type: 'OperationArchived',
      data: withBase(eventBaseOf(state, cmd.now), {
        snapshot: {
          status: state.status,
          fingerprint: state.fingerprint,
          confirmation: state.confirmation,
          lastError: state.lastError,
          retryable: state.retryable,
          createdAt: state.createdAt,
          updatedAt: state.updatedAt,
        },
        retentionMs: cmd.retentionMs,
        afterRetention: cmd.afterRetention,
      }),
    },
  ]);
}
