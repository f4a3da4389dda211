import { AUDIT_STREAM_PREFIX, OPERATION_STREAM_PREFIX } from '../../ledger/operation-key.js';

/** The ledger's streams: decision streams and their companion audit streams. */
export const LEDGER_STREAM_PREFIXES: readonly string[] = [OPERATION_STREAM_PREFIX, AUDIT_STREAM_PREFIX];

/** How often a call that failed with a transient error is tried again. Delays in ms. */
export interface RetryPolicy {
  /** Attempts in total, the first one included. @defaultValue 4 */
  readonly attempts: number;
  /** Delay before the first retry; doubled for each further one, then jittered ±50%. @defaultValue 100 */
  readonly initialDelayMs: number;
  /** Upper bound of one delay. @defaultValue 2000 */
  readonly maxDelayMs: number;
}

/** Options of {@link EventStoreDbEventStore.open}. */
export interface EventStoreDbOptions {
  /** EventStoreDB connection string (https://developers.eventstore.com/clients/grpc/#connection-string). */
  readonly connectionString: string;
  /** Streams `readAll` and append wake-ups cover, by name prefix. @defaultValue {@link LEDGER_STREAM_PREFIXES} */
  readonly streamPrefixes?: readonly string[];
  /** Time one attempt of a call may take, ms (reads: a client-side timer). @defaultValue 10000 */
  readonly timeoutMs?: number;
  /** Retries of transient failures (see {@link RetryPolicy}). */
  readonly retry?: Partial<RetryPolicy>;
}

/** {@link EventStoreDbOptions} with every default applied. */
export interface ResolvedEventStoreDbOptions {
  readonly connectionString: string;
  readonly streamPrefixes: readonly string[];
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 4, initialDelayMs: 100, maxDelayMs: 2000 };

/** Applies the defaults. @throws RangeError for a non-positive timeout or attempt count. */
export function resolveEventStoreDbOptions(options: EventStoreDbOptions): ResolvedEventStoreDbOptions {
  const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const timeoutMs = options.timeoutMs ?? 10_000;
  if (!(timeoutMs > 0) || !(retry.attempts >= 1)) {
    throw new RangeError('EventStoreDB timeoutMs and retry.attempts must be positive');
  }
  const streamPrefixes = options.streamPrefixes ?? LEDGER_STREAM_PREFIXES;
  if (streamPrefixes.length === 0 || streamPrefixes.some((p) => p === '')) {
    throw new RangeError('EventStoreDB streamPrefixes must be non-empty prefixes');
  }
  return { connectionString: options.connectionString, streamPrefixes, timeoutMs, retry };
}
