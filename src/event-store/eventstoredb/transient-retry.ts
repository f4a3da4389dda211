import {
  CancelledError,
  DeadlineExceededError,
  NotLeaderError,
  TimeoutError,
  UnavailableError,
} from '@eventstore/db-client';
import { deadlineClock, storeDeadline, StoreDeadlineError } from '../../common/store-deadline.js';
import { EventStoreUnavailableError } from '../event-store.port.js';
import type { RetryPolicy } from './eventstoredb-options.js';

/** One attempt took longer than its time budget (its outcome is unknown). */
export class AttemptTimeoutError extends Error {
  override readonly name = 'AttemptTimeoutError';
}

/**
 * True for failures after which the same call may succeed (unavailable, deadline, write timeout,
 * not leader — EventStoreDB docs "Leader election", no member discovered, our own timer). For a
 * write, every one leaves its outcome unknown: it may have been applied.
 */
export function isTransient(error: unknown): boolean {
  return (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof NotLeaderError ||
    error instanceof TimeoutError ||
    error instanceof CancelledError ||
    error instanceof AttemptTimeoutError ||
    (error instanceof Error && /^Failed to discover after \d+ attempts/.test(error.message))
  );
}

/** How {@link withRetry} runs one call. */
export interface RetryCall {
  /** Words naming the call in errors, e.g. `append to operation-…`. */
  readonly what: string;
  /**
   * Whether trying again after an unknown outcome is safe. Reads are; an append is only with a
   * concrete expected revision or `no_stream` and the same event ids (the server then acknowledges
   * the repeat without writing); with `any` it is not (idempotence is best effort).
   */
  readonly safe: boolean;
}

/** What one attempt gets: its time budget, and a hook to stop its work when the budget is spent. */
export interface AttemptContext {
  /** Time budget of this attempt, ms (pass it as the gRPC deadline). */
  readonly deadline: number;
  /** Registers `cancel`, called if the attempt times out (e.g. to cancel a streaming read). */
  onTimeout(cancel: () => void): void;
}

/**
 * Runs `attempt` within `timeoutMs`, retrying transient failures while `call.safe`, with backoff
 * and jitter, within the running work's store deadline. Other errors pass through unchanged.
 * @throws EventStoreUnavailableError when a transient failure is final (the caller answers 503);
 *   StoreDeadlineError once the store deadline has passed.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  timeoutMs: number,
  call: RetryCall,
  attempt: (context: AttemptContext) => Promise<T>,
): Promise<T> {
  const leftMs = () => (storeDeadline() ?? Infinity) - deadlineClock();
  for (let n = 1; ; n++) {
    try {
      if (leftMs() <= 0) throw new StoreDeadlineError();
      return await withTimeout(attempt, Math.min(timeoutMs, Math.ceil(leftMs())));
    } catch (error) {
      if (!isTransient(error)) throw error;
      if (!call.safe || n >= policy.attempts) {
        const reason = error instanceof Error ? error.message : String(error);
        const tries = n === 1 ? '' : ` after ${n} attempts`;
        throw new EventStoreUnavailableError(
          `EventStoreDB unavailable: ${call.what} failed${tries}: ${reason}`,
          error,
        );
      }
      await sleep(Math.min(backoffMs(policy, n), Math.max(0, leftMs())));
    }
  }
}

/** Delay before retry `n` (1-based): initial × 2^(n-1), capped, ±50% jitter. */
export function backoffMs(policy: RetryPolicy, n: number): number {
  const base = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (n - 1));
  return Math.round(base * (0.5 + Math.random()));
}

function withTimeout<T>(attempt: (context: AttemptContext) => Promise<T>, ms: number): Promise<T> {
  const cancels: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      for (const cancel of cancels) cancel();
      reject(new AttemptTimeoutError(`no answer within ${ms} ms`));
    }, ms);
  });
  const context: AttemptContext = { deadline: ms, onTimeout: (cancel) => void cancels.push(cancel) };
  const running = Promise.resolve().then(() => attempt(context));
  running.catch(() => undefined); // a late failure of an abandoned attempt is no unhandled rejection
  return Promise.race([running, timeout]).finally(() => clearTimeout(timer));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
