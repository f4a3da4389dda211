import { accept, type Decision } from './decision.js';
import { eventBaseOf, withBase } from './event-base.js';
import type { DuplicateEffectDetected } from './events.js';
import type { OperationState } from './operation-state.js';

/**
 * A destination record found by a reconciliation beyond the one the operation was confirmed with
 * (docs/reconciliation.md): a second effect no worker reported.
 */
export interface ReportReconciledDuplicate {
  readonly type: 'ReportReconciledDuplicate';
  /** Server time, epoch ms. */
  readonly now: number;
  /** The destination's id of the extra record (recorded as the duplicate's `incomingRef`). */
  readonly recordId: string;
  /** Id of the reconciliation run that found it. */
  readonly reconciliationId: string;
}

/** The data of a `DuplicateEffectDetected` found by reconciliation: who found it, and in which run. */
export type ReconciledDuplicateData = DuplicateEffectDetected['data'] & {
  readonly source: 'reconciliation';
  readonly reconciliationId: string;
};

/** What became of one reported extra record. */
export type ReconciledDuplicateOutcome =
  /** Recorded now: a new `DuplicateEffectDetected`. */
  | 'recorded'
  /** The stream already holds a duplicate effect with this reference (an earlier run, a worker). */
  | 'already_recorded'
  /** The record is the one the operation was confirmed with: not a second effect. */
  | 'is_confirmed_ref'
  /** The operation is not confirmed (yet): a duplicate of an unconfirmed outcome is not decided here. */
  | 'not_confirmed';

/**
 * Decides an extra destination record reported by reconciliation. Idempotent: a reference already
 * recorded records nothing, so re-runs never append twice. Only a confirmed operation gets the
 * event (as a worker's second confirm); never refused.
 */
export function decideReconciledDuplicate(
  cmd: ReportReconciledDuplicate,
  state: OperationState,
): Decision<{ readonly outcome: ReconciledDuplicateOutcome; readonly state: OperationState['status'] }> {
  const answer = (outcome: ReconciledDuplicateOutcome) => ({ outcome, state: state.status });
  if (state.status !== 'confirmed') return accept(answer('not_confirmed'));
  const recordedRef = state.confirmation?.destinationRef ?? null;
  if (cmd.recordId === recordedRef) return accept(answer('is_confirmed_ref'));
  if (state.duplicateEffects.some((d) => d.ref === cmd.recordId)) return accept(answer('already_recorded'));
  const data: ReconciledDuplicateData = withBase(eventBaseOf(state, cmd.now), {
    recordedRef,
    incomingRef: cmd.recordId,
    reportedByAttempt: state.attempt,
    source: 'reconciliation' as const,
    reconciliationId: cmd.reconciliationId,
  });
  const event: DuplicateEffectDetected = { type: 'DuplicateEffectDetected', data };
  return accept(answer('recorded'), [event]);
}
