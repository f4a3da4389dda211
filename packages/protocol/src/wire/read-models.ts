import type { OperationKey } from '../operation-key.js';
import type { Json } from './json.js';
import type { OperationState } from './operation-state.js';

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

/** The true label of why an operation's outcome is unknown. */
export type UnknownCause = 'reported_by_worker' | 'reported_timeout' | 'lease_expired_after_step';

/**
 * While an operation's outcome is unknown: the reason, its true label (`cause`), the worker's own
 * text (`detail`), when and in which attempt.
 */
export interface UnknownOutcome {
  readonly reason: string;
  readonly cause: UnknownCause;
  readonly detail: string | null;
  readonly at: string;
  readonly attempt: number;
}

/** A worker's error report: a machine-readable code and a message for people. */
export interface ReportedError {
  readonly code: string;
  readonly message: string;
}

/** A second effect at the destination; `acknowledged` once an operator confirmed it cleaned up. */
export interface DuplicateEffect {
  readonly ref: string;
  readonly at: string;
  readonly attempt: number;
  readonly acknowledged: boolean;
}

/** An operator's resolution of an unknown outcome: which, who, why and when. */
export interface OperatorResolution {
  readonly resolution: string;
  readonly actor: string;
  readonly reason: string;
  readonly at: string;
}

/** `GET /v1/operations/{id}`: the status folded from the operation's stream. */
export interface OperationStatus {
  readonly operationId: string;
  readonly key: OperationKey;
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
  /** Second effects at the destination after the confirmed one. */
  readonly duplicateEffects: readonly DuplicateEffect[];
  /** The error of the last failure a worker reported, if any. */
  readonly lastError: ReportedError | null;
  readonly resolution: OperatorResolution | null;
  /** While unknown: its true label (`cause`), the worker's own text (`detail`), when and which attempt. */
  readonly unknown?: UnknownOutcome | null;
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
  /** The decision stream or its audit companion (`OperationHistory.streamName` is the former). */
  readonly streamName: string;
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
