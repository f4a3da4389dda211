// The EventStoreDB adapter's translations, without a server: expected revisions both ways, the
// refused-append errors, which failures count as transient, and the backoff schedule.
import {
  DeadlineExceededError,
  NotLeaderError,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@eventstore/db-client';
import { Metadata } from '@grpc/grpc-js';
import {
  ANY,
  EventIdConflictError,
  NO_STREAM,
  WrongExpectedVersionError,
} from '../../src/event-store/event-store.port.js';
import {
  fromClientCurrentRevision,
  toClientExpectedRevision,
  toPortAppendError,
} from '../../src/event-store/eventstoredb/revision-mapping.js';
import { jest } from '@jest/globals';
import { withStoreDeadline } from '../../src/common/store-deadline.js';
import {
  AttemptTimeoutError,
  backoffMs,
  isTransient,
  withRetry,
} from '../../src/event-store/eventstoredb/transient-retry.js';

const refused = (current: bigint | 'no_stream') =>
  new ClientWrongExpectedVersionError(undefined, { streamName: 's', current, expected: 0n });

describe('expected revision mapping', () => {
  it('maps the port to the client and the client back, one to one', () => {
    expect(toClientExpectedRevision(NO_STREAM)).toBe('no_stream');
    expect(toClientExpectedRevision(ANY)).toBe('any');
    expect(toClientExpectedRevision(7n)).toBe(7n);
    expect(fromClientCurrentRevision('no_stream')).toBe(NO_STREAM);
    expect(fromClientCurrentRevision(3n)).toBe(3n);
  });

  it('turns a refused append into the port error with what was sent and the actual revision', () => {
    const error = toPortAppendError('s', NO_STREAM, refused(4n));
    expect(error).toBeInstanceOf(WrongExpectedVersionError);
    expect(error).toMatchObject({
      streamName: 's',
      expected: NO_STREAM,
      actual: 4n,
      currentEvents: undefined,
    });
    expect(toPortAppendError('s', 2n, refused('no_stream'))).toMatchObject({
      expected: 2n,
      actual: NO_STREAM,
    });
  });

  it('reads a refusal under `any` as reused event ids (corrupted idempotency)', () => {
    expect(toPortAppendError('s', ANY, refused(1n))).toBeInstanceOf(EventIdConflictError);
  });
});

describe('transient failures', () => {
  it('counts unavailable, deadline, not leader, discovery and our own timeout as transient', () => {
    const metadata = new Metadata();
    metadata.set('leader-endpoint-host', 'node2');
    metadata.set('leader-endpoint-port', '2113');
    const notLeader = new NotLeaderError({ code: 5, details: 'x', metadata } as never);
    for (const error of [
      new UnavailableError(),
      new DeadlineExceededError(),
      notLeader,
      new AttemptTimeoutError('late'),
      new Error('Failed to discover after 10 attempts.'),
    ]) {
      expect(isTransient(error)).toBe(true);
    }
  });

  it('does not retry answers: a refused append, a missing stream, a bug', () => {
    expect(isTransient(refused(1n))).toBe(false);
    expect(isTransient(new StreamNotFoundError(undefined, 's'))).toBe(false);
    expect(isTransient(new TypeError('x'))).toBe(false);
  });

  it('backs off exponentially, capped, with ±50% jitter', () => {
    const policy = { attempts: 6, initialDelayMs: 100, maxDelayMs: 1000 };
    for (let i = 0; i < 50; i++) {
      expect(backoffMs(policy, 1)).toBeGreaterThanOrEqual(50);
      expect(backoffMs(policy, 1)).toBeLessThanOrEqual(150);
      expect(backoffMs(policy, 3)).toBeGreaterThanOrEqual(200);
      expect(backoffMs(policy, 3)).toBeLessThanOrEqual(600);
      expect(backoffMs(policy, 10)).toBeLessThanOrEqual(1500);
    }
  });

  it('retries only within the request store deadline, not a whole timeout per attempt', async () => {
    jest.useFakeTimers();
    try {
      const policy = { attempts: 4, initialDelayMs: 100, maxDelayMs: 2000 };
      const attempts: number[] = [];
      const started = performance.now();
      const call = withStoreDeadline(started + 3000, () =>
        withRetry(policy, 10_000, { what: 'read s', safe: true }, () => {
          attempts.push(performance.now() - started);
          return attempts.length === 1
            ? Promise.reject(new UnavailableError())
            : new Promise(() => undefined);
        }),
      );
      let outcome = 'waiting';
      call.catch((e: Error) => (outcome = e.name));
      await jest.advanceTimersByTimeAsync(3010);
      expect(outcome).toBe('StoreDeadlineError');
      expect(attempts).toHaveLength(2); // the second attempt ended at the deadline, not 10 s later
    } finally {
      jest.useRealTimers();
    }
  });
});
