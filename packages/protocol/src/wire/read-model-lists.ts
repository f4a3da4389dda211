import type { OperationKey } from '../operation-key.js';
import type { OperationState, ReviewReason } from './operation-state.js';
import type { OperatorResolution, ReportedError, UnknownCause, UnknownOutcome } from './read-models.js';

/** One page of a list route: items, the next cursor (null on the last page), and freshness. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor: string | null;
  /** The read model's checkpoint (a global position, decimal string). */
  readonly checkpoint?: string;
  readonly lag?: { readonly events: number; readonly seconds: number; readonly capped?: boolean };
  readonly [field: string]: unknown;
}

/** Filters of the status view, `GET /v1/tenants/{tenant}/operations` (all optional). */
export interface OperationListFilter {
  readonly state?: OperationState;
  readonly action?: string;
  readonly source?: string;
  readonly subjectPrefix?: string;
  /** ISO 8601: only operations changed at or after this. */
  readonly changedSince?: string;
  /** By last change; `desc` (newest first) when left out. */
  readonly order?: 'asc' | 'desc';
}

/** A row of the status view (an item of `GET /v1/tenants/{tenant}/operations` and its feed). */
export interface OperationRow {
  readonly operationId: string;
  readonly key: OperationKey;
  readonly state: OperationState;
  /** Set for a failed operation, else null. */
  readonly retryable: boolean | null;
  readonly attempt: number;
  readonly fingerprint: string | null;
  readonly lastError: ReportedError | null;
  readonly lastCompletedStep: string | null;
  readonly destinationRef: string | null;
  /** Second effects at the destination, and how many of them nobody acknowledged yet. */
  readonly duplicateEffects: number;
  readonly openDuplicateEffects: number;
  readonly duplicateClaims: number;
  readonly payloadConflicts: number;
  readonly lease: { readonly workerId: string | null; readonly expiresAt: string | null } | null;
  /** While unknown: the reason, its true label (`cause`), the worker's own text (`detail`). */
  readonly unknown: UnknownOutcome | null;
  readonly resolution: OperatorResolution | null;
  readonly firstSeen: string;
  readonly lastChange: string;
  /** Global position of the last event applied to the row (decimal string). */
  readonly position: string;
}

/** Filters of the review queue, `GET /v1/tenants/{tenant}/review-queue`. */
export interface ReviewQueueFilter {
  readonly reason?: ReviewReason;
  readonly action?: string;
}

/**
 * An entry of a tenant's review queue (one per operation and reason). The reason's details are
 * members of the entry: `startedSteps`, `unknownCause` and `unknownDetail` for `unknown_outcome`,
 * others (error, lease history, references) by reason.
 */
export interface ReviewItem {
  readonly operationId: string;
  readonly key: OperationKey;
  readonly reason: ReviewReason;
  /** When the operation entered the queue for this reason (ISO 8601). */
  readonly since: string;
  /** Milliseconds the entry has waited, on the server clock. */
  readonly ageMs: number;
  /** Global position of the operation's last change (decimal string). */
  readonly position: string;
  readonly startedSteps?: readonly {
    readonly step: string;
    readonly providerIdempotencyKey: string;
    readonly startedAt?: string;
  }[];
  readonly unknownCause?: UnknownCause;
  readonly unknownDetail?: string | null;
  readonly [detail: string]: unknown;
}
