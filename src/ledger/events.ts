import type { JsonValue } from './fingerprint.js';
import type { OperationKey } from './operation-key.js';
import type { UnknownCause } from './unknown-cause.js';

/** A domain event: a past-tense fact with a type discriminant and its data. */
export interface Event<Type extends string, Data extends object> {
  readonly type: Type;
  readonly data: Data;
}

/** Fields every ledger event carries. `at` is the server clock (ISO 8601 UTC). */
export interface EventBase {
  readonly operationId: string;
  readonly key: OperationKey;
  /** The tenant, repeated from the key for projections and isolation filters. */
  readonly tenant: string;
  /** Attempt number the event belongs to (0 before the first claim). */
  readonly attempt: number;
  readonly at: string;
}

/** An external error as a worker reports it. */
export interface ReportedError {
  readonly code: string;
  readonly message: string;
}

/** Why an attempt began. */
export type ClaimReason =
  'first' | 'after_retryable_failure' | 'after_release' | 'after_lease_expiry' | 'after_approval';

export type OperationClaimed = Event<
  'OperationClaimed',
  EventBase & {
    readonly fingerprint: string;
    readonly payload: JsonValue;
    readonly workerId: string | null;
    readonly leaseMs: number;
    readonly leaseExpiresAt: string;
    readonly reason: ClaimReason;
    /** The client's id of the claim request that acquired this attempt (absent when none was sent). */
    readonly claimRequestId?: string;
  }
>;

export type StepStarted = Event<
  'StepStarted',
  EventBase & { readonly step: string; readonly providerIdempotencyKey: string }
>;

export type StepCompleted = Event<
  'StepCompleted',
  EventBase & { readonly step: string; readonly outputs: JsonValue | null }
>;

/**
 * The holder stated that a started step of its attempt was not performed (its request provably
 * never reached the destination): the step no longer makes the outcome uncertain.
 */
export type StepNotPerformed = Event<
  'StepNotPerformed',
  EventBase & { readonly step: string; readonly reason: string }
>;

/** How a confirmation arrived: the holder, a stale attempt while Unknown (evidence), or an operator. */
export type ConfirmationSource = 'worker' | 'late_confirmation';

export type OperationConfirmed = Event<
  'OperationConfirmed',
  EventBase & {
    /** Destination reference; `null` when the worker sent none ("" and "0" are kept as sent). */
    readonly destinationRef: string | null;
    readonly outputs: JsonValue | null;
    readonly source: ConfirmationSource;
    /** Attempt whose fencing token came with the confirmation (a stale one for late evidence). */
    readonly reportedByAttempt: number;
  }
>;

export type OperationFailed = Event<
  'OperationFailed',
  EventBase & { readonly error: ReportedError; readonly retryable: boolean }
>;

/** Who released: the holder, or the lease sweeper (lease expired with nothing started). */
export type ReleasedBy = 'worker' | 'sweeper';

export type OperationReleased = Event<
  'OperationReleased',
  EventBase & { readonly reason: string | null; readonly releasedBy?: ReleasedBy }
>;

/** The holder extended its lease (heartbeat). */
export type LeaseRenewed = Event<
  'LeaseRenewed',
  EventBase & { readonly leaseMs: number; readonly leaseExpiresAt: string }
>;

/** An operator action: who and why, both required (docs/api.md "Action policies"). */
export interface OperatorAction {
  readonly actor: string;
  readonly reason: string;
}

/**
 * The first claim of an action whose policy requires a human approval: the intent is recorded
 * (payload and fingerprint, so conflicts are still detected) and waits for an operator.
 */
export type ApprovalRequested = Event<
  'ApprovalRequested',
  EventBase & {
    readonly fingerprint: string;
    readonly payload: JsonValue;
    readonly workerId: string | null;
    readonly policyVersion: number | null;
  }
>;

export type OperationApproved = Event<'OperationApproved', EventBase & OperatorAction>;
export type OperationRejected = Event<'OperationRejected', EventBase & OperatorAction>;

/** An operator lets a final failure run again (only where the action's policy allows replay). */
export type OperationReplayed = Event<'OperationReplayed', EventBase & OperatorAction>;

/** An operator confirms duplicate effects were cleaned up at the destination. */
export type DuplicateEffectAcknowledged = Event<
  'DuplicateEffectAcknowledged',
  EventBase & OperatorAction & { readonly refs: readonly string[] }
>;

/** What a recovery worker found when it looked the effect up at the destination. */
export type EvidenceVerdict = 'found' | 'not_found' | 'inconclusive';

/** A recovery worker's evidence for an Unknown operation: found → Confirmed, not_found → Released. */
export type RecoveryEvidenceSubmitted = Event<
  'RecoveryEvidenceSubmitted',
  EventBase & {
    readonly verdict: EvidenceVerdict;
    readonly destinationRef: string | null;
    readonly checkedFields: Readonly<Record<string, JsonValue>>;
    readonly actor: string;
    readonly note: string | null;
  }
>;

/** A newer revision of the same subject was claimed; claims of this revision are refused. */
export type OperationSuperseded = Event<
  'OperationSuperseded',
  EventBase & { readonly byRevision: number; readonly byOperationId: string }
>;

/** Coarse reason kept for readers of the event: reported by the worker, or an expired lease. */
export type UnknownReason = 'reported_timeout' | 'lease_expired';

export type OutcomeUnknown = Event<
  'OutcomeUnknown',
  EventBase & {
    readonly reason: UnknownReason;
    /** The true label (unknown-cause.ts); absent on events recorded before it existed. */
    readonly cause?: UnknownCause;
    /** The worker's own text (its report's `reason`); a note of the sweeper; null. */
    readonly detail: string | null;
    /** Steps of this attempt that were started and never completed. */
    readonly unfinishedSteps: readonly string[];
  }
>;

export type Resolution = 'confirmed' | 'not_found' | 'abandoned';

export type OperationResolved = Event<
  'OperationResolved',
  EventBase & {
    readonly resolution: Resolution;
    readonly destinationRef: string | null;
    readonly reason: string;
    readonly actor: string;
    /** The body's differing `actor`, recorded alongside the key's holder. */
    readonly requestedActor?: string;
  }
>;

/**
 * The destination reference of an operation confirmed without one, recorded later by an operator
 * or by the late confirmation of the confirmed attempt: it fills the reference in, not a second effect.
 */
export type DestinationReferenceRecorded = Event<
  'DestinationReferenceRecorded',
  EventBase & {
    readonly destinationRef: string;
    readonly source: 'operator' | 'late_confirmation';
    /** Operator source: the key's holder and the reason; null for a late confirmation. */
    readonly actor: string | null;
    readonly reason: string | null;
    readonly requestedActor?: string;
    /** Late confirmation: the attempt whose token came with it; null for an operator. */
    readonly reportedByAttempt: number | null;
  }
>;

/** A second, different destination reference for one operation: a real second effect. Alarmed. */
export type DuplicateEffectDetected = Event<
  'DuplicateEffectDetected',
  EventBase & {
    readonly recordedRef: string | null;
    readonly incomingRef: string;
    /** Attempt whose token came with the second reference. */
    readonly reportedByAttempt: number;
  }
>;

/** What a refused or replayed duplicate claim was answered (audit stream). */
export type DuplicateAnswer =
  'replayed' | 'in_progress' | 'awaiting_recovery' | 'awaiting_approval' | 'superseded' | 'retention_expired';

export type DuplicateClaimPrevented = Event<
  'DuplicateClaimPrevented',
  EventBase & {
    readonly fingerprint: string;
    readonly workerId: string | null;
    readonly answer: DuplicateAnswer;
    readonly state: string;
    /** Duplicate claims this coalesced record stands for (duplicate-window.ts); absent: one. */
    readonly count?: number;
    readonly firstAt?: string;
    readonly lastAt?: string;
  }
>;

export type PayloadConflictDetected = Event<
  'PayloadConflictDetected',
  EventBase & {
    readonly existingFingerprint: string;
    readonly incomingFingerprint: string;
    readonly incomingPayload: JsonValue;
    readonly workerId: string | null;
  }
>;

/** The part of an operation's state kept by its retention tombstone. */
export interface ArchivedSnapshot {
  readonly status: 'confirmed' | 'failed' | 'abandoned' | 'rejected';
  readonly fingerprint: string | null;
  readonly confirmation: {
    readonly destinationRef: string | null;
    readonly outputs: JsonValue | null;
    readonly at: string;
    readonly attempt: number;
    readonly via: 'worker' | 'late_confirmation' | 'operator' | 'recovery';
  } | null;
  readonly lastError: ReportedError | null;
  readonly retryable: boolean | null;
  readonly createdAt: string | null;
  readonly updatedAt: string | null;
}

/**
 * Retention tombstone: the history before it is truncated; key, fingerprint and outcome stay, so
 * a repeat is never treated as a new first claim.
 */
export type OperationArchived = Event<
  'OperationArchived',
  EventBase & {
    readonly snapshot: ArchivedSnapshot;
    readonly retentionMs: number;
    readonly afterRetention: 'tombstone' | 'refuse';
  }
>;

/** Events of the decision stream `operation-<key>`. */
export type DecisionEvent =
  | OperationClaimed
  | StepStarted
  | StepCompleted
  | StepNotPerformed
  | OperationConfirmed
  | OperationFailed
  | OperationReleased
  | OutcomeUnknown
  | OperationResolved
  | DuplicateEffectDetected
  | DestinationReferenceRecorded
  | LeaseRenewed
  | ApprovalRequested
  | OperationApproved
  | OperationRejected
  | OperationReplayed
  | DuplicateEffectAcknowledged
  | RecoveryEvidenceSubmitted
  | OperationSuperseded
  | OperationArchived;

/** Events of the companion audit stream `audit-operation-<key>` (appended with `any`). */
export type AuditEvent = DuplicateClaimPrevented | PayloadConflictDetected;

export type LedgerEvent = DecisionEvent | AuditEvent;

/** Type names of decision-stream events, for readers that must tell them apart. */
export const DECISION_EVENT_TYPES: ReadonlySet<string> = new Set<DecisionEvent['type']>([
  'OperationClaimed',
  'StepStarted',
  'StepCompleted',
  'StepNotPerformed',
  'OperationConfirmed',
  'OperationFailed',
  'OperationReleased',
  'OutcomeUnknown',
  'OperationResolved',
  'DuplicateEffectDetected',
  'DestinationReferenceRecorded',
  'LeaseRenewed',
  'ApprovalRequested',
  'OperationApproved',
  'OperationRejected',
  'OperationReplayed',
  'DuplicateEffectAcknowledged',
  'RecoveryEvidenceSubmitted',
  'OperationSuperseded',
  'OperationArchived',
]);
