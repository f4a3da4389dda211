import type { ReportedError } from './events.js';
import type { JsonValue } from './fingerprint.js';
import type { OperationState } from './operation-state.js';

/** The recorded outcome replayed to a duplicate claim of a terminal operation. */
export interface ReplayedOutcome {
  readonly destinationRef: string | null;
  readonly outputs: JsonValue | null;
  readonly confirmedAt: string | null;
  readonly confirmedVia: 'worker' | 'late_confirmation' | 'operator' | 'recovery' | null;
  readonly error: ReportedError | null;
  readonly retryable: boolean | null;
  readonly resolution: { readonly actor: string; readonly reason: string; readonly at: string } | null;
  /** Rejected operations: the operator's decision. */
  readonly approval: { readonly decision: string; readonly actor: string; readonly reason: string } | null;
}

/** Builds the outcome of a terminal state (confirmed, final failure, abandoned). */
export function outcomeOf(state: OperationState): ReplayedOutcome {
  const c = state.confirmation;
  return {
    destinationRef: c?.destinationRef ?? null,
    outputs: c?.outputs ?? null,
    confirmedAt: c?.at ?? null,
    confirmedVia: c?.via ?? null,
    error: state.status === 'failed' ? state.lastError : null,
    retryable: state.status === 'failed' ? state.retryable : null,
    resolution: state.resolution
      ? { actor: state.resolution.actor, reason: state.resolution.reason, at: state.resolution.at }
      : null,
    approval: state.approval
      ? { decision: state.approval.decision, actor: state.approval.actor, reason: state.approval.reason }
      : null,
  };
}
