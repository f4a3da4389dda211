import { AsyncLocalStorage } from 'node:async_hooks';
import { EventStoreUnavailableError } from '../event-store/event-store.port.js';

/**
 * The store deadline of the work running now (`performance.now()` ms), in an AsyncLocalStorage so
 * it follows the request's awaits without a parameter; shared work runs {@link withoutStoreDeadline}.
 */
const deadlines = new AsyncLocalStorage<number | undefined>();

/**
 * The store did not answer before the request's deadline (`LEDGER_STORE_TIMEOUT_MS`): 503
 * `store-unavailable` (docs/production-ha.md "What clients see during a failover").
 */
export class StoreDeadlineError extends EventStoreUnavailableError {
  override readonly name: string = 'StoreDeadlineError';
  constructor() {
    super('Event store unavailable: no answer within the request deadline (LEDGER_STORE_TIMEOUT_MS)');
  }
}

/** Now on the deadline clock (`performance.now()`, ms). */
export const deadlineClock = (): number => performance.now();

/**
 * Runs `fn` under the store deadline `at` (see {@link deadlineClock}); an enclosing, earlier deadline
 * stays in force (a deadline is only ever shortened).
 */
export function withStoreDeadline<T>(at: number, fn: () => T): T {
  const outer = deadlines.getStore();
  return deadlines.run(outer === undefined ? at : Math.min(outer, at), fn);
}

/**
 * Runs `fn` with no store deadline: for work that outlives the request that started it or serves
 * several requests (a batch, a timer, a wake-up after a commit). Each waiting caller keeps its own.
 */
export function withoutStoreDeadline<T>(fn: () => T): T {
  return deadlines.run(undefined, fn);
}

/** The store deadline of the running work, or undefined when it has none. */
export function storeDeadline(): number | undefined {
  return deadlines.getStore();
}

/** Whether the running work has a store deadline and it has passed. */
export function storeDeadlinePassed(): boolean {
  const at = deadlines.getStore();
  return at !== undefined && deadlineClock() >= at;
}

/**
 * Waits for `start()`'s promise, no longer than the store deadline; a late promise goes to
 * `abandon` (e.g. to return a pooled connection it brings later).
 * @throws StoreDeadlineError; whatever `start` rejects with.
 */
export function beforeStoreDeadline<T>(
  start: () => Promise<T>,
  abandon?: (late: Promise<T>) => void,
): Promise<T> {
  const at = deadlines.getStore();
  if (at === undefined) return start();
  const left = at - deadlineClock();
  if (left <= 0) return Promise.reject(new StoreDeadlineError());
  const work = start();
  return waitUntil(work, at, () => {
    work.catch(() => undefined);
    abandon?.(work);
    return true;
  });
}

/**
 * Waits for `work`; at `at` (see {@link deadlineClock}) asks `giveUp` and, when it says so,
 * rejects with {@link StoreDeadlineError} instead (else waits for `work` to its end).
 * @throws StoreDeadlineError; whatever `work` rejects with.
 */
export function waitUntil<T>(work: Promise<T>, at: number, giveUp: () => boolean): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => {
        if (giveUp()) reject(new StoreDeadlineError());
      },
      Math.max(0, at - deadlineClock()),
    );
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
