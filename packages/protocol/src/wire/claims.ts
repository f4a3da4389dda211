import type { OperationKeyInput } from '../operation-key.js';
import type { Json } from './json.js';

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
  readonly key: OperationKeyInput;
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
