import { randomUUID } from 'node:crypto';
import type { EventStore, EventToAppend, RecordedEvent } from '../../src/event-store/event-store.port.js';

/** A unique stream name, so tests sharing one store never see each other's streams. */
export function streamName(label: string): string {
  return `test-${label}-${randomUUID()}`;
}

/** `count` new events with fresh ids, types `<type>-0`, `<type>-1` …, data `{ n }`. */
export function newEvents(count: number, type = 'Happened'): EventToAppend[] {
  return Array.from({ length: count }, (_, n) => ({
    id: randomUUID(),
    type: `${type}-${n}`,
    data: { n, nested: { text: 'ä€😀', list: [1, 2.5, null, true] } },
    metadata: { correlationId: randomUUID() },
  }));
}

export const ids = (events: readonly { id: string }[]): string[] => events.map((event) => event.id);

/** The rejection of `promise` (fails the test when it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('Expected the promise to reject, it resolved');
}

/**
 * Pages through `readAll` from `after` with `pageSize` until `expected` events were read or
 * `timeoutMs` passed (readAll may lag behind commits while a transaction that could still write
 * below them is open: on PostgreSQL, one of this database, or of another that ended between the
 * reader's snapshot and its look at the server's activity). Throws if a page holds more than
 * `pageSize` events.
 */
export async function readAllUntil(
  store: EventStore,
  after: bigint,
  expected: number,
  pageSize = 100,
  timeoutMs = 5000,
): Promise<RecordedEvent[]> {
  const read: RecordedEvent[] = [];
  let checkpoint = after;
  const deadline = Date.now() + timeoutMs;
  while (read.length < expected && Date.now() < deadline) {
    const page = await store.readAll(checkpoint, pageSize);
    if (page.length > pageSize)
      throw new Error(`readAll answered ${page.length} events for limit ${pageSize}`);
    if (page.length === 0) {
      await sleep(10);
      continue;
    }
    read.push(...page);
    checkpoint = page[page.length - 1]!.globalPosition;
  }
  return read;
}

/** `readAll(after, limit)`, asked again while it answers nothing (for up to `timeoutMs`; see {@link readAllUntil}). */
export async function readAllPage(
  store: EventStore,
  after: bigint,
  limit: number,
  timeoutMs = 5000,
): Promise<RecordedEvent[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = await store.readAll(after, limit);
    if (page.length > 0 || Date.now() >= deadline) return page;
    await sleep(10);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Asserts positions are strictly increasing. */
export function expectStrictlyIncreasing(positions: readonly bigint[]): void {
  for (let i = 1; i < positions.length; i++) {
    if (!(positions[i]! > positions[i - 1]!)) {
      throw new Error(`Positions not strictly increasing at ${i}: ${positions.join(', ')}`);
    }
  }
}
