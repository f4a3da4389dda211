import type { ReportedError, Resolution, UnknownReason } from './events.js';
import type { JsonValue } from './fingerprint.js';
import type { OperationKey } from './operation-key.js';
import type { UnknownCause } from './unknown-cause.js';

/** Explicit states (docs/domain.md "States and transitions"), plus `none` for a key never claimed. */
export type OperationStatus =
  | 'none'
  | 'awaiting_approval'
  | 'approved'
  | 'rejected'
  | 'in_progress'
  | 'confirmed'
  | 'failed'
  | 'released'
  | 'unknown'
  | 'abandoned';

/** A worker's lease. Times are epoch milliseconds on the server's clock. */
export interface Lease {
  readonly workerId: string | null;
  readonly attempt: number;
  readonly acquiredAt: number;
  readonly expiresAt: number;
  /** The client's id of the claim request that acquired the lease (absent when none was sent). */
  readonly claimRequestId?: string;
}

/**
 * One named step; `attempt` is the attempt that last started or completed it. `not_performed`:
 * its holder stated the step's request never left (StepNotPerformed), so it carries no effect.
 */
export interface StepState {
  readonly name: string;
  readonly status: 'started' | 'completed' | 'not_performed';
  readonly attempt: number;
  readonly providerIdempotencyKey: string;
  readonly startedAt: string;
  readonly completedAt: string | null;
  readonly outputs: JsonValue | null;
}

/** The recorded outcome of a confirmed operation. */
export interface Confirmation {
  readonly destinationRef: string | null;
  readonly outputs: JsonValue | null;
  readonly at: string;
  readonly attempt: number;
  readonly via: 'worker' | 'late_confirmation' | 'operator' | 'recovery';
}

/** The folded state of one operation's decision stream. */
export interface OperationState {
  readonly status: OperationStatus;
  readonly operationId: string | null;
  readonly key: OperationKey | null;
  readonly fingerprint: string | null;
  readonly payload: JsonValue | null;
  /** Current attempt = the valid fencing token; 0 before the first claim. */
  readonly attempt: number;
  readonly lease: Lease | null;
  readonly steps: Readonly<Record<string, StepState>>;
  readonly confirmation: Confirmation | null;
  readonly duplicateEffects: readonly {
    readonly ref: string;
    readonly at: string;
    readonly attempt: number;
    /** An operator confirmed the extra effect was cleaned up. */
    readonly acknowledged: boolean;
  }[];
  readonly lastError: ReportedError | null;
  /** Set when status is `failed`. */
  readonly retryable: boolean | null;
  readonly unknown: {
    readonly reason: UnknownReason;
    /** The true label (unknown-cause.ts); absent in a read model's fold stored before it existed. */
    readonly cause?: UnknownCause;
    /** The worker's own text, or the sweeper's note; absent in an older stored fold. */
    readonly detail?: string | null;
    readonly at: string;
    readonly attempt: number;
  } | null;
  readonly resolution: {
    readonly resolution: Resolution;
    readonly actor: string;
    readonly reason: string;
    readonly at: string;
  } | null;
  /** Operator decision on an approval-gated operation. */
  readonly approval: {
    readonly decision: 'approved' | 'rejected';
    readonly actor: string;
    readonly reason: string;
    readonly at: string;
  } | null;
  /** Set once a newer revision of the subject was claimed. */
  readonly supersededBy: {
    readonly revision: number;
    readonly operationId: string;
    readonly at: string;
  } | null;
  /** The last recovery evidence submitted while Unknown. */
  readonly lastEvidence: {
    readonly verdict: 'found' | 'not_found' | 'inconclusive';
    readonly actor: string;
    readonly at: string;
  } | null;
  /** Set when retention compacted the history into a tombstone. */
  readonly archived: { readonly at: string; readonly afterRetention: 'tombstone' | 'refuse' } | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

/** State of a key that was never claimed. */
export const initialState: OperationState = Object.freeze({
  status: 'none',
  operationId: null,
  key: null,
  fingerprint: null,
  payload: null,
  attempt: 0,
  lease: null,
  steps: {},
  confirmation: null,
  duplicateEffects: [],
  lastError: null,
  retryable: null,
  unknown: null,
  resolution: null,
  approval: null,
  supersededBy: null,
  lastEvidence: null,
  archived: null,
  createdAt: null,
  updatedAt: null,
});

/** Steps of the current attempt that were started and not completed (the uncertain ones). */
export function unfinishedSteps(state: OperationState): string[] {
  return Object.values(state.steps)
    .filter((s) => s.status === 'started' && s.attempt === state.attempt)
    .map((s) => s.name);
}

/**
 * Whether any step was started in the current attempt (completed or not); a step its holder
 * marked not performed does not count (it can have no effect).
 */
export function anyStepStartedThisAttempt(state: OperationState): boolean {
  return Object.values(state.steps).some((s) => s.attempt === state.attempt && s.status !== 'not_performed');
}
