import type { ErrorClass } from './outcome-mapping.js';
import type { InProgressError } from '../errors.js';
import type { ReplayedOutcome } from '../types.js';
import type { OperationContext } from './operation-context.js';

/** Options of `runOnce` (and of every item of `runMany`). Durations in ms. */
export interface RunOptions {
  /** Lease asked for (1 000 – 3 600 000, at most the policy's `maxLeaseMs`). @defaultValue 30000 */
  readonly leaseMs?: number;
  /** Renew the lease every `leaseMs / 3` while the job runs. @defaultValue true */
  readonly renewLease?: boolean;
  /**
   * On 409 `in-progress`, wait (the holder's Retry-After, capped by `pollMs`) and claim again
   * until `timeoutMs` has passed, then throw the InProgressError. Without it: throw at once.
   */
  readonly waitIfInProgress?: {
    readonly timeoutMs: number;
    readonly pollMs?: number;
    /** Called on each `in-progress` answer before waiting (metrics, logs). */
    readonly onWait?: (refusal: InProgressError) => void;
  };
  /** Cancels waiting and the job (`op.signal` aborts); before any step this releases the claim. */
  readonly signal?: AbortSignal;
  /** Recorded with the claim (audit). */
  readonly workerId?: string;
  /** The job's time budget: past it `op.signal` aborts and the SDK records the outcome at once. */
  readonly timeoutMs?: number;
  /** Says which job errors are final (recorded `retryable: false`); `FinalError` always is. */
  readonly classifyError?: (error: unknown) => ErrorClass | undefined;
  /**
   * The step the job runs first, before anything that can fail: the claim may start it in the
   * same request (round-trip shortcut) where the ledger supports it.
   */
  readonly firstStep?: string;
  /** Amendments: the older revision this claim supersedes. */
  readonly supersedes?: number;
}

/** What a job returns: the destination's reference and outputs, recorded by the confirm. */
export interface JobResult {
  readonly destinationRef?: string;
  /** Any JSON-serialisable value, replayed to later claims. */
  readonly outputs?: unknown;
}

/** A job: runs only when the claim acquired the operation. */
export type Job = (op: OperationContext) => Promise<JobResult | void> | JobResult | void;

/** The outcome `runOnce` returns (the recorded one on a replay). */
export type RunOutcome = Pick<ReplayedOutcome, 'destinationRef' | 'outputs'> & Partial<ReplayedOutcome>;

/** `runOnce`'s answer. */
export interface RunResult {
  /** `executed`: this call ran the job and confirmed it; `replayed`: the recorded outcome. */
  readonly status: 'executed' | 'replayed';
  readonly operationId: string;
  /** The operation's state: `confirmed`, or for a replay also `failed`, `abandoned`, `rejected`. */
  readonly state: string;
  /** The attempt that ran the job (executed only). */
  readonly attempt?: number;
  readonly outcome: RunOutcome;
}

/** The default lease, ms (the ledger's own default). */
export const DEFAULT_LEASE_MS = 30_000;
