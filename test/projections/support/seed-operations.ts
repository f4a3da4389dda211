import type { EventStore } from '../../../src/event-store/event-store.port.js';
import { lifecycleAppends, lifecycleOf } from './lifecycles.js';

/**
 * Appends the histories of operations `from` … `to - 1` round by round: round r appends the r-th
 * step of every operation that has one, in one `appendBatch`, so histories interleave in global
 * order while each keeps its own order.
 */
export async function seedOperations(
  store: EventStore,
  tag: string,
  from: number,
  to: number,
  chunk = 400,
): Promise<void> {
  const histories = [];
  for (let i = from; i < to; i++) histories.push(lifecycleAppends(tag, i, lifecycleOf(i)));
  const rounds = Math.max(...histories.map((h) => h.length));
  for (let r = 0; r < rounds; r++) {
    const requests = histories.flatMap((h) => (h[r] ? [h[r]!] : []));
    for (let i = 0; i < requests.length; i += chunk) {
      const outcomes = await store.appendBatch(requests.slice(i, i + chunk));
      if (outcomes.some((o) => !o.ok)) throw new Error('seed append refused');
    }
  }
}
