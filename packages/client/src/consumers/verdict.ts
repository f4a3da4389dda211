import {
  AwaitingApprovalError,
  AwaitingRecoveryError,
  DuplicateEffectError,
  InProgressError,
  InvalidKeyError,
  JobFailedError,
  PayloadConflictError,
  RetentionExpiredError,
  SupersededError,
} from '../errors.js';
import type { RunResult } from '../worker/run-options.js';

/**
 * What a consumer adapter does with a message once `runOnce` settled (docs/consumers.md):
 * - `ack` — the ledger recorded an outcome: executed, replayed, final failure, a payload conflict
 *   or a superseded revision (audited), a duplicate effect (alarmed), or **unknown** (left to
 *   recovery, whose `onReleased` re-enqueues it: nothing is lost and nothing doubles);
 * - `retry` — a retryable failure, a lost lease, the ledger unreachable: the broker redelivers
 *   after `delayMs` (its backoff);
 * - `delay` — in progress elsewhere, or awaiting an approval: redeliver after `delayMs`, never a
 *   tight requeue loop;
 * - `reject` — the message can never run (no key, an invalid key, a key whose retention ended
 *   under a `refuse` policy): dead-letter it.
 */
export type Verdict =
  | { readonly action: 'ack'; readonly outcome: AckedOutcome; readonly operationId?: string }
  | { readonly action: 'retry'; readonly delayMs: number; readonly reason: string }
  | { readonly action: 'delay'; readonly delayMs: number; readonly reason: string }
  | { readonly action: 'reject'; readonly reason: string };

/** Why a message was acked. */
export type AckedOutcome =
  | 'executed'
  | 'replayed'
  | 'failed-final'
  | 'unknown'
  | 'payload-conflict'
  | 'superseded'
  | 'duplicate-effect';

/** Backoff of `retry` verdicts. Durations in ms. */
export interface RetryBackoff {
  /** Delay of the first redelivery. @defaultValue 1000 */
  readonly baseMs?: number;
  /** Longest delay. @defaultValue 60000 */
  readonly maxMs?: number;
}

/** Delay while an approval is awaited, ms. */
const APPROVAL_DELAY_MS = 60_000;
/** Shortest delay of an `in-progress` redelivery, ms (the ledger may answer 0 near lease end). */
const MIN_IN_PROGRESS_DELAY_MS = 250;

/**
 * Exponential backoff with full jitter for the `deliveries`-th delivery (1 = first): a random
 * delay in [d/2, d], d = min(maxMs, baseMs · 2^(deliveries−1)). `random` is injectable for tests.
 */
export function retryDelayMs(deliveries: number, backoff: RetryBackoff = {}, random = Math.random): number {
  const { baseMs = 1_000, maxMs = 60_000 } = backoff;
  const d = Math.min(maxMs, baseMs * 2 ** Math.min(20, Math.max(0, deliveries - 1)));
  return Math.round(d / 2 + (random() * d) / 2);
}

/**
 * The verdict on a message from how `runOnce` settled (`result` or `error`), for its
 * `deliveries`-th delivery. Pure.
 */
export function verdictFor(
  settled: { readonly result: RunResult } | { readonly error: unknown },
  deliveries = 1,
  backoff: RetryBackoff = {},
): Verdict {
  if ('result' in settled) {
    const { status, operationId } = settled.result;
    return { action: 'ack', outcome: status, operationId };
  }
  const error = settled.error;
  const retry = (reason: string): Verdict => ({
    action: 'retry',
    delayMs: retryDelayMs(deliveries, backoff),
    reason,
  });
  if (error instanceof JobFailedError) {
    switch (error.recorded) {
      case 'failed-final':
        return { action: 'ack', outcome: 'failed-final', operationId: error.operationId };
      case 'unknown':
        return { action: 'ack', outcome: 'unknown', operationId: error.operationId };
      default:
        // failed-retryable, released, not-recorded (the lease expires; the ledger decides on
        // the redelivery's claim).
        return retry(`job failed, recorded ${error.recorded}`);
    }
  }
  if (error instanceof InProgressError) {
    const delayMs = Math.max(MIN_IN_PROGRESS_DELAY_MS, error.retryAfterMs);
    return { action: 'delay', delayMs, reason: 'in progress elsewhere' };
  }
  if (error instanceof AwaitingApprovalError) {
    return { action: 'delay', delayMs: APPROVAL_DELAY_MS, reason: 'awaiting approval' };
  }
  if (error instanceof AwaitingRecoveryError) return { action: 'ack', outcome: 'unknown' };
  if (error instanceof PayloadConflictError) return { action: 'ack', outcome: 'payload-conflict' };
  if (error instanceof SupersededError) return { action: 'ack', outcome: 'superseded' };
  if (error instanceof DuplicateEffectError) return { action: 'ack', outcome: 'duplicate-effect' };
  if (
    error instanceof InvalidKeyError ||
    error instanceof UnusableMessageError ||
    error instanceof RetentionExpiredError
  ) {
    return { action: 'reject', reason: (error as Error).message };
  }
  // A lost lease, the ledger unreachable, anything unexpected: the ledger guards the redelivery.
  return retry(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
}

/** The message carries no usable key (e.g. no `message-id`) or body: it can never run. */
export class UnusableMessageError extends Error {
  override name = 'UnusableMessageError';
}
