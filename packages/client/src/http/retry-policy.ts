/** How the SDK retries a request the ledger could not take (network error, timeout, 503). */
export interface RetryOptions {
  /** Requests sent at most, the first included. @defaultValue 5 */
  readonly attempts?: number;
  /** First backoff, ms; doubled each time, with jitter. @defaultValue 100 */
  readonly baseDelayMs?: number;
  /** Longest single wait, ms, whatever `Retry-After` says. @defaultValue 2000 */
  readonly maxDelayMs?: number;
}

/** {@link RetryOptions} with every default applied. */
export type RetryPolicy = Required<RetryOptions>;

/** The defaults: 5 requests, 100 ms doubling backoff, no wait above 2 s. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 2_000 };

/** Applies the defaults and checks the bounds. @throws RangeError on a negative or zero bound. */
export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const p = { ...DEFAULT_RETRY, ...options };
  if (!Number.isInteger(p.attempts) || p.attempts < 1) throw new RangeError('retry.attempts must be >= 1');
  if (p.baseDelayMs < 0 || p.maxDelayMs < 0) throw new RangeError('retry delays must be >= 0 ms');
  return p;
}

/**
 * The wait before retry number `retry` (1-based), ms: the server's `Retry-After` when it gave
 * one, else exponential backoff with full jitter (AWS Architecture Blog, "Exponential Backoff
 * and Jitter"); never above `maxDelayMs`.
 */
export function retryDelayMs(policy: RetryPolicy, retry: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return Math.min(policy.maxDelayMs, retryAfterMs);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
