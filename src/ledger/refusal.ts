/**
 * Stable refusal codes. Each is the last segment of the problem+json `type` URI (docs/api.md
 * "Problem codes") and is mapped to an HTTP status by the web layer, never here.
 */
export type RefusalCode =
  | 'in-progress'
  | 'awaiting-recovery'
  | 'payload-conflict'
  | 'stale-token'
  | 'duplicate-effect'
  | 'outcome-uncertain'
  | 'not-unknown'
  | 'not-in-progress'
  | 'step-not-started'
  | 'not-found'
  | 'awaiting-approval'
  | 'superseded'
  | 'not-awaiting-approval'
  | 'not-final-failure'
  | 'replay-not-allowed'
  | 'no-duplicate-effect'
  | 'operator-only-recovery'
  | 'retention-expired'
  | 'not-confirmed'
  | 'reference-already-recorded';

/** Why a command was refused, with what the caller needs to act on it. */
export interface Refusal {
  readonly code: RefusalCode;
  readonly message: string;
  /**
   * in-progress: ms to wait before asking again — the ms left on the holder's lease, at most
   * `IN_PROGRESS_RETRY_MAX_MS` (5 000).
   */
  readonly retryAfterMs?: number;
  /** in-progress: when the holder's lease ends (ISO 8601 UTC) unless renewed. */
  readonly leaseExpiresAt?: string;
  /** payload-conflict: both fingerprints. */
  readonly existingFingerprint?: string;
  readonly incomingFingerprint?: string;
  /** The operation's state when refused. */
  readonly state?: string;
  /** duplicate-effect: the recorded and the incoming destination references. */
  readonly recordedRef?: string | null;
  readonly incomingRef?: string;
  /** superseded: the newer revision. */
  readonly supersededBy?: number;
}
