import type { StreamingRead } from '@eventstore/db-client';
import type { ResolvedEventStoreDbOptions } from './eventstoredb-options.js';
import { withRetry, type AttemptContext, type RetryCall } from './transient-retry.js';

/**
 * Runs one store call with the adapter's timeout and retry policy (see {@link withRetry}); each
 * attempt receives its {@link AttemptContext}.
 */
export type CallRunner = <T>(call: RetryCall, attempt: (context: AttemptContext) => Promise<T>) => Promise<T>;

/** A {@link CallRunner} for `options` that first checks the store is still open. */
export function createCallRunner(options: ResolvedEventStoreDbOptions, assertOpen: () => void): CallRunner {
  return (call, attempt) => {
    assertOpen();
    return withRetry(options.retry, options.timeoutMs, call, attempt);
  };
}

/** Reads a streaming read to its end; the client has no read deadline, so the attempt's timer cancels it. */
export async function collectRead<E>(context: AttemptContext, open: () => StreamingRead<E>): Promise<E[]> {
  const read = open();
  context.onTimeout(() => void read.cancel().catch(() => undefined));
  const items: E[] = [];
  for await (const item of read) items.push(item as E);
  return items;
}
