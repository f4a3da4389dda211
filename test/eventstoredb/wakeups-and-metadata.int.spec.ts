// EventStoreDB-only parts of the adapter, against the wire-level double: append wake-ups from other
// processes (subscribeToAll), and stream metadata for retention ($maxAge, $tb).
import { randomUUID } from 'node:crypto';
import { EventStoreDBClient } from '@eventstore/db-client';
import { NO_STREAM } from '../../src/event-store/event-store.port.js';
import type { EventStoreDbEventStore } from '../../src/event-store/eventstoredb/eventstoredb-event-store.js';
import {
  startEventStoreDbDouble,
  type EventStoreDbDouble,
} from '../support/eventstoredb-double/eventstoredb-double.js';
import { newEvents, rejectionOf, sleep } from '../event-store/event-store-test-kit.js';
import { openTestAdapter } from './eventstoredb-fixture.js';

let double: EventStoreDbDouble;
let mine: EventStoreDbEventStore;
let other: EventStoreDbEventStore;
beforeAll(async () => {
  double = await startEventStoreDbDouble();
  [mine, other] = await Promise.all([
    openTestAdapter(double.connectionString),
    openTestAdapter(double.connectionString),
  ]);
});
afterAll(async () => {
  await Promise.all([mine.close(), other.close()]);
  await double.stop();
});

async function until(condition: () => boolean, ms = 2000): Promise<void> {
  for (const deadline = Date.now() + ms; !condition() && Date.now() < deadline;) await sleep(5);
}

describe('subscribeToAppends', () => {
  it('wakes listeners after this process appends and after another process appends to a ledger stream', async () => {
    let calls = 0;
    const stop = mine.subscribeToAppends(() => calls++);
    await sleep(50); // the subscription is confirmed

    await mine.append(`test-${randomUUID()}`, newEvents(1), NO_STREAM);
    expect(calls).toBeGreaterThanOrEqual(1); // at once, for its own append

    const before = calls;
    await other.append(`test-${randomUUID()}`, newEvents(1), NO_STREAM);
    await until(() => calls > before);
    expect(calls).toBeGreaterThan(before); // through the $all subscription

    const afterOthers = calls;
    await other.append(`elsewhere-${randomUUID()}`, newEvents(1), NO_STREAM); // not a ledger prefix
    await sleep(100);
    expect(calls).toBe(afterOthers);
    stop();
    stop();
  });

  it('stops calling a listener after it unsubscribed', async () => {
    let calls = 0;
    const stop = mine.subscribeToAppends(() => calls++);
    stop();
    await other.append(`test-${randomUUID()}`, newEvents(1), NO_STREAM);
    await sleep(100);
    expect(calls).toBe(0);
  });
});

describe('stream metadata for retention', () => {
  it('sets $maxAge in the stream metadata, keeping other settings', async () => {
    const stream = `test-${randomUUID()}`;
    await mine.append(stream, newEvents(1), NO_STREAM);
    await mine.truncateBefore(stream, 1n);

    await mine.setStreamMaxAge(stream, 86_400);

    const client = EventStoreDBClient.connectionString(double.connectionString);
    try {
      const { metadata } = await client.getStreamMetadata(stream);
      expect(metadata).toMatchObject({ maxAge: 86_400, truncateBefore: 1 });
    } finally {
      await client.dispose();
    }
    expect(await rejectionOf(mine.setStreamMaxAge(stream, 0))).toBeInstanceOf(RangeError);
  });

  it('never lowers $tb: a later, smaller truncateBefore keeps the events hidden', async () => {
    const stream = `test-${randomUUID()}`;
    await mine.append(stream, newEvents(4), NO_STREAM);

    expect(await mine.truncateBefore(stream, 3n)).toBe(-1n);
    await mine.truncateBefore(stream, 1n);

    expect((await mine.read(stream)).map((e) => e.streamPosition)).toEqual([3n]);
    expect(double.log.count(stream)).toBe(4); // still in the log until a scavenge
    expect(await rejectionOf(mine.truncateBefore(stream, -1n))).toBeInstanceOf(RangeError);
  });
});

describe('servers before 22.6', () => {
  it('are refused with a clear error: they send no event positions on stream reads', async () => {
    const legacy = await startEventStoreDbDouble({ legacyStreamPositions: true });
    const store = await openTestAdapter(legacy.connectionString);
    try {
      const stream = `test-${randomUUID()}`;
      await store.append(stream, newEvents(1), NO_STREAM);
      expect(String(await rejectionOf(store.read(stream)))).toMatch(/needs EventStoreDB 22\.6 or later/);
    } finally {
      await store.close();
      await legacy.stop();
    }
  });
});
