import { LedgerClient, type FetchLike } from '@operation-ledger/client';
import type { TestLedger } from '../../support/test-ledger.js';

/** A promise with its resolver, for jobs a test holds and releases. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Polls `check` until it returns a truthy value (every 50 ms, at most `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T> | T,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves when `signal` aborts. */
export function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(signal.reason);
    signal.addEventListener('abort', () => resolve(signal.reason), { once: true });
  });
}

/** An SDK client of the test ledger with the root key (all roles, tenant `*`). */
export function sdkClient(ledger: TestLedger, extra: { fetch?: FetchLike } = {}): LedgerClient {
  return new LedgerClient({ baseUrl: ledger.url, token: ledger.rootToken, ...extra });
}

/**
 * A fetch a test can pause, like a worker process that stalls (GC pause, partition): requests
 * wait at the gate; `idle()` resolves once none is in flight past it.
 */
export class PausableFetch {
  private gate: Promise<void> = Promise.resolve();
  private open: () => void = () => {};
  private inFlight = 0;

  readonly fetch: FetchLike = async (input, init) => {
    await this.gate;
    this.inFlight++;
    try {
      return await fetch(input, init);
    } finally {
      this.inFlight--;
    }
  };

  pause(): Promise<void> {
    this.gate = new Promise((r) => (this.open = r));
    return eventually(() => this.inFlight === 0).then(() => undefined);
  }

  resume(): void {
    this.open();
  }
}
