import { rawRequestOf } from './raw-request.js';
import { deadlineClock, withStoreDeadline } from './store-deadline.js';

/** Store time (ms) each request's earlier phases spent, by Node.js request. */
const spentBy = new WeakMap<object, number>();

/**
 * Runs one phase of a request — authentication, then its handler — under the request's store
 * deadline: what is left of `timeoutMs` (`LEDGER_STORE_TIMEOUT_MS`) after the phases before it, so
 * that every wait of the request on the store (connection pool, connecting, group commit, retries)
 * shares one budget. The time between phases (the body arriving) is not spent: it has its own bound
 * (`LEDGER_REQUEST_TIMEOUT_MS`). A promise returned by `fn` is timed and spent once it settles.
 * @param request the Fastify or the Node.js request (both name the same budget).
 */
export function onRequestStoreBudget<T>(request: object, timeoutMs: number, fn: () => T): T {
  const raw = rawRequestOf<object>(request);
  const started = deadlineClock();
  const result = withStoreDeadline(started + timeoutMs - (spentBy.get(raw) ?? 0), fn);
  if (result instanceof Promise) {
    const spend = () => spentBy.set(raw, (spentBy.get(raw) ?? 0) + deadlineClock() - started);
    result.then(spend, spend);
  }
  return result;
}
