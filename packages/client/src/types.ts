/**
 * The ledger's wire vocabulary as the SDK sees it (the HTTP contract is in the repository's
 * README and `docs/api.md`). Field names are the server's; times are ISO 8601 strings, durations
 * are milliseconds.
 */

/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [member: string]: Json };

/**
 * The business identity of an operation: `{tenant, source, action, subject, revision?}`
 * (revision defaults to 1). Text parts are case-sensitive, NFC, 1–256 bytes of UTF-8.
 */
export interface OperationKey {
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
  readonly revision?: number;
}

/** States of an operation's stream. */
export type OperationState =
  | 'in_progress'
  | 'confirmed'
  | 'failed'
  | 'released'
  | 'unknown'
  | 'abandoned'
  | 'awaiting_approval'
  | 'approved'
  | 'rejected';

/** A step completed by an earlier attempt, as a claim answer lists it. */
export interface CompletedStep {
  readonly step: string;
  readonly providerIdempotencyKey: string;
  /** Present when the ledger sends the outputs with the claim (else the SDK reads them). */
  readonly outputs?: Json | null;
}

/** `201` answer of `POST /v1/claims`: go ahead with this fencing token. */
export interface AcquiredClaim {
  readonly operationId: string;
  readonly state: 'in_progress';
  readonly attempt: number;
  readonly fencingToken: number;
  readonly leaseExpiresAt: string;
  readonly fingerprint: string;
  /**
   * Why this attempt exists: `first`, `after_retryable_failure`, `after_release`,
   * `after_lease_expiry`, `after_approval`; `same_claim_request` for a repeat of the claim request
   * that acquired it (its first answer was lost).
   */
  readonly reason: string;
  readonly completedSteps: readonly CompletedStep[];
  /** Round-trip shortcut: the step the claim started (`startStep`), when the ledger supports it. */
  readonly startedStep?: { readonly name: string; readonly providerIdempotencyKey: string };
}

/** The recorded outcome replayed to a later claim of a finished operation. */
export interface ReplayedOutcome {
  readonly destinationRef: string | null;
  readonly outputs: Json | null;
  readonly confirmedAt: string | null;
  readonly confirmedVia: 'worker' | 'late_confirmation' | 'operator' | 'recovery' | null;
  readonly error: { readonly code: string; readonly message: string } | null;
  readonly retryable: boolean | null;
  readonly resolution: { readonly actor: string; readonly reason: string; readonly at: string } | null;
  readonly approval: { readonly decision: string; readonly actor: string; readonly reason: string } | null;
}

/** `200` answer of `POST /v1/claims` (header `Idempotent-Replayed: true`). */
export interface ReplayedClaim {
  readonly operationId: string;
  readonly state: 'confirmed' | 'failed' | 'abandoned' | 'rejected';
  readonly replayed: true;
  readonly outcome: ReplayedOutcome;
}

/** A claim's successful answer. */
export type ClaimAnswer =
  ({ readonly kind: 'acquired' } & AcquiredClaim) | ({ readonly kind: 'replayed' } & ReplayedClaim);

/** Body of `POST /v1/claims`. */
export interface ClaimRequest {
  readonly key: OperationKey;
  /** Any JSON-serialisable value; its RFC 8785 canonical form is fingerprinted. */
  readonly payload: unknown;
  /** Lease length, ms (1 000 – 3 600 000, at most the action policy's `maxLeaseMs`). */
  readonly leaseMs?: number;
  readonly workerId?: string;
  /** Amendments: the older revision this claim supersedes. */
  readonly supersedes?: number;
  /** Round-trip shortcut: also start this step (only where the ledger supports it). */
  readonly startStep?: string;
  /**
   * The client's id of this claim request (1–128 of `A-Za-z0-9._:-`), the same on its retries:
   * a repeat while the attempt it acquired holds the lease is answered as that acquisition.
   */
  readonly claimRequestId?: string;
}

/** Answer of an accepted fenced worker command (start, complete, confirm, fail, …). */
export interface WorkerAnswer {
  readonly operationId: string;
  readonly state: OperationState;
  /** Step start only. */
  readonly providerIdempotencyKey?: string;
  /** Lease renewal only. */
  readonly leaseExpiresAt?: string;
  /** True when the command repeated one already recorded (nothing new written). */
  readonly alreadyRecorded?: boolean;
  readonly [field: string]: unknown;
}

/** One step of an operation's status document. */
export interface StepStatus {
  readonly step: string;
  readonly status: 'started' | 'completed' | 'not_performed';
  readonly attempt: number;
  readonly providerIdempotencyKey: string;
  readonly startedAt: string | null;
  readonly completedAt: string | null;
  readonly outputs: Json | null;
}

/** `GET /v1/operations/{id}`: the status folded from the operation's stream. */
export interface OperationStatus {
  readonly operationId: string;
  readonly key: Required<OperationKey>;
  readonly state: OperationState;
  readonly attempt: number;
  readonly fencingToken: number;
  readonly fingerprint: string | null;
  readonly retryable?: boolean;
  readonly lease: {
    readonly workerId: string | null;
    readonly attempt: number;
    readonly acquiredAt: string;
    readonly expiresAt: string;
    readonly expired: boolean;
  } | null;
  readonly steps: readonly StepStatus[];
  readonly destinationRef: string | null;
  /** While unknown: its true label (`cause`), the worker's own text (`detail`), when and which attempt. */
  readonly unknown?: {
    readonly reason: string;
    readonly cause: 'reported_by_worker' | 'reported_timeout' | 'lease_expired_after_step';
    readonly detail: string | null;
    readonly at: string;
    readonly attempt: number;
  } | null;
  /** The payload of the claim (what was intended); its fingerprint is `fingerprint`. */
  readonly payload?: Json | null;
  readonly revision: number;
  readonly [field: string]: unknown;
}

/** Who caused an event: the API key's name, plus the worker id where a worker acted, or a job. */
export interface EventActor {
  /** For people: `invoice-sync (pid-15318)`, `ops:maria`, `sweeper`. */
  readonly label: string;
  readonly keyName: string | null;
  readonly keyId: string | null;
  readonly workerId: string | null;
  readonly job: string | null;
}

/** One event of `GET /v1/operations/{id}/history`. */
export interface HistoryEvent {
  readonly type: string;
  readonly streamPosition: number | string;
  readonly globalPosition: number | string;
  readonly recordedAt: string;
  readonly data: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
  /** Who caused it (absent from ledgers older than this field). */
  readonly actor?: EventActor;
  readonly [field: string]: unknown;
}

/** `GET /v1/operations/{id}/history`: every event, decision and audit streams, in commit order. */
export interface OperationHistory {
  readonly operationId: string;
  readonly streamName: string;
  readonly events: readonly HistoryEvent[];
  readonly [field: string]: unknown;
}
