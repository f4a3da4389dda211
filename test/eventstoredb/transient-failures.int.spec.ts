// Transient gRPC failures between the EventStoreDB adapter and the server (the double injects
// them): what is retried, what is not, and that a retry never leaves a second copy of an event.
import { randomUUID } from 'node:crypto';
import {
  ANY,
  EventStoreUnavailableError,
  NO_STREAM,
  WrongExpectedVersionError,
} from '../../src/event-store/event-store.port.js';
import type { EventStoreDbEventStore } from '../../src/event-store/eventstoredb/eventstoredb-event-store.js';
import {
  startEventStoreDbDouble,
  type EventStoreDbDouble,
} from '../support/eventstoredb-double/eventstoredb-double.js';
import { ids, newEvents, rejectionOf } from '../event-store/event-store-test-kit.js';
import { openTestAdapter } from './eventstoredb-fixture.js';

describe.each([
  ['BatchAppend', true],
  ['Append', false],
])('EventStoreDB adapter under transient failures (%s)', (_path, serverFeatures) => {
  let double: EventStoreDbDouble;
  let store: EventStoreDbEventStore;
  beforeAll(async () => {
    double = await startEventStoreDbDouble({ serverFeatures });
    store = await openTestAdapter(double.connectionString);
  });
  afterAll(async () => {
    await store.close();
    await double.stop();
  });
  afterEach(() => double.faults.clear());

  const stream = () => `test-${randomUUID()}`;

  it('retries a first claim (no_stream) whose answer was lost: one copy of each event', async () => {
    const s = stream();
    const claim = newEvents(2);
    const before = double.faults.appendRequests;
    double.faults.inject({ target: 'append', kind: 'unavailable', when: 'after' });

    const result = await store.append(s, claim, NO_STREAM);

    expect(double.faults.appendRequests - before).toBe(2); // the lost one, then the retry
    expect(result.nextExpectedRevision).toBe(1n);
    expect(double.log.count(s)).toBe(2);
    expect(ids(await store.read(s))).toEqual(ids(claim));
  });

  it('retries an append with a concrete revision after a lost answer, even when others wrote since', async () => {
    const s = stream();
    await store.append(s, newEvents(1), NO_STREAM);
    const step = newEvents(1);
    double.faults.inject({ target: 'append', kind: 'deadline-exceeded', when: 'after' });

    const result = await store.append(s, step, 0n);

    expect(result.nextExpectedRevision).toBe(1n);
    expect(double.log.count(s)).toBe(2);
    // A caller's own retry of the same append (same ids, same revision) after others appended:
    await store.append(s, newEvents(1), ANY);
    const repeat = await store.append(s, step, 0n);
    expect(repeat.nextExpectedRevision).toBe(1n);
    expect(double.log.count(s)).toBe(3);
  });

  it('retries a refused write (nothing applied) and reports a genuine conflict as such', async () => {
    const s = stream();
    double.faults.inject({ target: 'append', kind: 'unavailable' });
    await store.append(s, newEvents(1), NO_STREAM);
    double.faults.inject({ target: 'append', kind: 'unavailable' });
    const error = await rejectionOf(store.append(s, newEvents(1), NO_STREAM));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect((error as WrongExpectedVersionError).actual).toBe(0n);
    expect(double.log.count(s)).toBe(1);
  });

  it('does not retry an append with `any` (idempotence is best effort): 503, and no second copy', async () => {
    const s = stream();
    double.faults.inject({ target: 'append', kind: 'unavailable', when: 'after' });
    const before = double.faults.appendRequests;

    const error = await rejectionOf(store.append(s, newEvents(1), ANY));

    expect(error).toBeInstanceOf(EventStoreUnavailableError);
    expect(double.faults.appendRequests - before).toBe(1);
    expect(double.log.count(s)).toBe(1);
  });

  it('gives up with EventStoreUnavailableError when every attempt fails', async () => {
    double.faults.always({ target: 'append', kind: 'unavailable' });
    const error = await rejectionOf(store.append(stream(), newEvents(1), NO_STREAM));
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
    expect((error as Error).message).toMatch(/after 4 attempts/);
  });

  it('retries reads, and times out a read that gets no answer', async () => {
    const s = stream();
    await store.append(s, newEvents(1), NO_STREAM);
    double.faults.inject({ target: 'read', kind: 'unavailable' }, 2);
    expect(await store.read(s)).toHaveLength(1);

    double.faults.always({ target: 'read', kind: 'hang' });
    const slow = await openTestAdapter(double.connectionString, {
      timeoutMs: 100,
      retry: { attempts: 2 },
    }).catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(EventStoreUnavailableError); // open() probes with a read
  });
});

describe('EventStoreDB adapter and leader changes', () => {
  it('follows a NotLeader answer to the leader and retries the append there', async () => {
    const leader = await startEventStoreDbDouble();
    const follower = await startEventStoreDbDouble();
    follower.faults.always({
      target: 'append',
      kind: 'not-leader',
      leader: { host: leader.host, port: leader.port },
    });
    const store = await openTestAdapter(follower.connectionString);
    try {
      const s = `test-${randomUUID()}`;
      await store.append(s, newEvents(1), NO_STREAM);
      expect(leader.log.count(s)).toBe(1);
      expect(follower.log.count(s)).toBe(0);
    } finally {
      await store.close();
      await Promise.all([leader.stop(), follower.stop()]);
    }
  });

  it('raises EventStoreUnavailableError when no node answers', async () => {
    const gone = await startEventStoreDbDouble();
    await gone.stop();
    const error = await openTestAdapter(gone.connectionString).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventStoreUnavailableError);
  });
});
