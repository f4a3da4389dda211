import { rawRequestOf } from './raw-request.js';
import { deadlineClock, withStoreDeadline } from './store-deadline.js';

/** Store time (ms) each request's earlier phases spent, by Node.js request. */
const spentBy = new WeakMap<object, number>();

/**
 * Runs one phase of a request (authentication, then its handler) under what is left of its store
 * budget `timeoutMs`; the body's arrival between phases is not spent (it has its own bound).
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
