import type { ReportedError, Resolution } from './events.js';
import type { JsonValue } from './fingerprint.js';
import type { OperationKey } from './operation-key.js';

/** Every command carries `now`: epoch milliseconds of the server's clock (never the caller's). */
interface At {
  readonly now: number;
}

/** Worker commands after the claim carry the fencing token (= the attempt the claim returned). */
interface Fenced extends At {
  readonly fencingToken: number;
}

export interface ClaimOperation extends At {
  readonly type: 'ClaimOperation';
  readonly key: OperationKey;
  readonly operationId: string;
  readonly payload: JsonValue;
  readonly fingerprint: string;
  /** Lease length in ms, within {@link MIN_LEASE_MS}..{@link MAX_LEASE_MS}. */
  readonly leaseMs: number;
  readonly workerId: string | null;
  /** The action's policy as it applies to claims; absent = no approval, no version. */
  readonly policy?: ClaimPolicy;
  /** Round-trip shortcut: a step started in the same append when the claim acquires, or none. */
  readonly startStep?: string | null;
  /** The client's id of this claim request, the same on its retries (docs/api.md "Claims"). */
  readonly claimRequestId?: string | null;
}

/** The parts of an action policy the claim decision needs. */
export interface ClaimPolicy {
  /** A human must approve before the first claim proceeds. */
  readonly requireApproval: boolean;
  /** Version of the policy applied (its stream revision), recorded for audit. */
  readonly version: number | null;
}

export interface StartStep extends Fenced {
  readonly type: 'StartStep';
  readonly step: string;
}

export interface CompleteStep extends Fenced {
  readonly type: 'CompleteStep';
  readonly step: string;
  readonly outputs: JsonValue | null;
}

export interface ConfirmOperation extends Fenced {
  readonly type: 'ConfirmOperation';
  readonly destinationRef: string | null;
  readonly outputs: JsonValue | null;
  /** Round-trip shortcut: a step completed in the same append as the confirmation, or none. */
  readonly completeStep?: { readonly step: string; readonly outputs: JsonValue | null } | null;
}

export interface FailOperation extends Fenced {
  readonly type: 'FailOperation';
  readonly error: ReportedError;
  readonly retryable: boolean;
}

export interface ReleaseOperation extends Fenced {
  readonly type: 'ReleaseOperation';
  readonly reason: string | null;
}

export interface ReportUnknownOutcome extends Fenced {
  readonly type: 'ReportUnknownOutcome';
  readonly reason: string;
  /** The worker says its call timed out (the SDK knows when); absent: it did not say. */
  readonly timedOut?: boolean;
}

/**
 * The holder states that a step it started was **not performed**: its request provably never
 * left, so no effect can exist (docs/domain.md "Steps not performed").
 */
export interface MarkStepNotPerformed extends Fenced {
  readonly type: 'MarkStepNotPerformed';
  readonly step: string;
  readonly reason: string;
}

export interface ResolveOperation extends At {
  readonly type: 'ResolveOperation';
  readonly resolution: Resolution;
  readonly destinationRef: string | null;
  readonly reason: string;
  /** The API key's holder (never the body's claim alone). */
  readonly actor: string;
  /** The `actor` the request body named when it differs from the key's holder, kept for the record. */
  readonly requestedActor?: string;
}

/** An operator records the destination reference of an operation confirmed without one. */
export interface RecordDestinationReference extends At {
  readonly type: 'RecordDestinationReference';
  readonly destinationRef: string;
  readonly reason: string;
  /** The API key's holder. */
  readonly actor: string;
  /** The body's differing `actor`, kept for the record. */
  readonly requestedActor?: string;
}

/** Heartbeat: the holder extends its lease to `now + leaseMs`. */
export interface RenewLease extends Fenced {
  readonly type: 'RenewLease';
  readonly leaseMs: number;
}

export type WorkerCommand =
  | RenewLease
  | StartStep
  | CompleteStep
  | ConfirmOperation
  | FailOperation
  | ReleaseOperation
  | ReportUnknownOutcome
  | MarkStepNotPerformed;

/** Operator action fields: who (from the API key) and why (required). */
interface ByOperator extends At {
  readonly actor: string;
  readonly reason: string;
}

export interface ApproveOperation extends ByOperator {
  readonly type: 'ApproveOperation';
}

export interface RejectOperation extends ByOperator {
  readonly type: 'RejectOperation';
}

/** Replay a final failure; allowed only where the action's policy says so. */
export interface ReplayOperation extends ByOperator {
  readonly type: 'ReplayOperation';
  readonly replayAllowed: boolean;
}

/** Acknowledge duplicate effects after cleanup; all unacknowledged ones when `refs` is null. */
export interface AcknowledgeDuplicateEffect extends ByOperator {
  readonly type: 'AcknowledgeDuplicateEffect';
  readonly refs: readonly string[] | null;
}

export type OperatorCommand =
  ApproveOperation | RejectOperation | ReplayOperation | AcknowledgeDuplicateEffect;

/** A recovery worker's evidence for an Unknown operation (see RecoveryEvidenceSubmitted). */
export interface SubmitEvidence extends At {
  readonly type: 'SubmitEvidence';
  readonly verdict: 'found' | 'not_found' | 'inconclusive';
  readonly destinationRef: string | null;
  readonly checkedFields: Readonly<Record<string, JsonValue>>;
  readonly actor: string;
  readonly note: string | null;
  /** From the action's policy: `operator_only` refuses evidence from recovery workers. */
  readonly recoveryMode: 'worker_lookup' | 'operator_only';
}

/** The lease sweeper: make an expired lease visible (Unknown if a step started, else Released). */
export interface SweepExpiredLease extends At {
  readonly type: 'SweepExpiredLease';
}

/** Mark this (older) revision superseded by a newer one of the same subject. */
export interface SupersedeRevision extends At {
  readonly type: 'SupersedeRevision';
  /** Key and operationId of the older revision (its stream may not exist yet). */
  readonly key: OperationKey;
  readonly operationId: string;
  readonly byRevision: number;
  readonly byOperationId: string;
}

/** Retention job: compact a finished operation whose retention ended into a tombstone. */
export interface ArchiveOperation extends At {
  readonly type: 'ArchiveOperation';
  readonly retentionMs: number;
  readonly afterRetention: 'tombstone' | 'refuse';
}

export type LedgerCommand =
  | ClaimOperation
  | WorkerCommand
  | ResolveOperation
  | RecordDestinationReference
  | OperatorCommand
  | SubmitEvidence
  | SweepExpiredLease
  | SupersedeRevision
  | ArchiveOperation;

/** Shortest lease a claim may ask for, ms. */
export const MIN_LEASE_MS = 1_000;
/** Longest lease a claim may ask for, ms (one hour). */
export const MAX_LEASE_MS = 3_600_000;
/** Lease given when the claim names none, ms. */
export const DEFAULT_LEASE_MS = 30_000;
