import { randomUUID } from 'node:crypto';
import {
  ANY,
  EventIdConflictError,
  type EventStore,
  EventStoreUnavailableError,
  NO_STREAM,
  WrongExpectedVersionError,
} from '../../src/event-store/event-store.port.js';
import {
  expectStrictlyIncreasing,
  ids,
  newEvents,
  readAllPage,
  readAllUntil,
  rejectionOf,
  streamName,
} from './event-store-test-kit.js';

/** One store under test. */
export interface EventStoreFixture {
  readonly store: EventStore;
  /** Closes the store and frees what the factory allocated. */
  cleanup(): Promise<void>;
  /**
   * Counts a stream's events in the store's storage itself, not through `read` (e.g. `select
   * count(*)` on the table), so a test can catch a read path that hides duplicates.
   */
  countStored?(streamName: string): Promise<number>;
}

export interface EventStoreContractOptions {
  /** Timeout of the factory call (default 30 s: PGlite takes ~2 s to start). */
  readonly setupTimeoutMs?: number;
  /**
   * Genuine, documented properties of a store that differ from the SQL stores; every other
   * assertion stays the same. EventStoreDB (docs "Appending events", "Idempotence", "Deleting
   * events") has all four. Default: none.
   */
  readonly differences?: StoreDifferences;
}

/** See {@link EventStoreContractOptions.differences}. */
export interface StoreDifferences {
  /** A wrong expected version carries only the actual revision: `currentEvents` is undefined. */
  readonly noCurrentEvents?: boolean;
  /** A repeat is acknowledged exactly like the first append: `deduplicated` is always false. */
  readonly noDedupeFlag?: boolean;
  /**
   * Event ids are an idempotency key per stream, checked best effort under `any`: an id reused in
   * another stream, or a first id the stream has not seen, makes a new append.
   */
  readonly perStreamEventIds?: boolean;
  /** Truncated events leave `readAll` only when the store compacts its log (a scavenge). */
  readonly readAllKeepsTruncatedEvents?: boolean;
}

/**
 * The behaviour every EventStore adapter must show (EventStoreDB semantics, see the port).
 * `factory` is called once for the suite (tests use unique stream names and read `readAll` after
 * their own marker event) and once more for the close test. Tests in one file run sequentially.
 */
export function describeEventStoreContract(
  name: string,
  factory: () => Promise<EventStoreFixture>,
  options: EventStoreContractOptions = {},
): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStore;
    const setupTimeout = options.setupTimeoutMs ?? 30_000;
    const differences = options.differences ?? {};
    /** `currentEvents` of a refused append: `expected` ids, or undefined where the store has none. */
    const expectCurrentEvents = (error: WrongExpectedVersionError, expected: readonly { id: string }[]) =>
      differences.noCurrentEvents
        ? expect(error.currentEvents).toBeUndefined()
        : expect(ids(error.currentEvents ?? [])).toEqual(ids(expected));
    /** The `deduplicated` flag of a repeated append. */
    const repeatFlag = !differences.noDedupeFlag;

    beforeAll(async () => {
      fixture = await factory();
      store = fixture.store;
    }, setupTimeout);
    afterAll(() => fixture?.cleanup());

    /** Stored count when the fixture can count, else what `read` returns. */
    async function stored(stream: string): Promise<number> {
      return fixture.countStored ? fixture.countStored(stream) : (await store.read(stream)).length;
    }

    /** Opens the store's connections first, so concurrent appends really overlap. */
    async function warmUp(stream: string): Promise<void> {
      await Promise.all(Array.from({ length: 20 }, () => store.read(stream)));
    }

    describe('expected revision', () => {
      it('appends to a new stream with no_stream and reads the events back in order', async () => {
        const stream = streamName('new');
        const events = newEvents(3);
        const before = Date.now();

        const result = await store.append(stream, events, NO_STREAM);

        expect(result.nextExpectedRevision).toBe(2n);
        expect(result.deduplicated).toBe(false);
        expect(result.lastGlobalPosition).toBeGreaterThan(result.firstGlobalPosition);
        const read = await store.read(stream);
        expect(read).toHaveLength(3);
        expect(await stored(stream)).toBe(3);
        read.forEach((event, n) => {
          expect(event).toEqual({
            id: events[n]!.id,
            type: events[n]!.type,
            streamName: stream,
            streamPosition: BigInt(n),
            globalPosition: expect.any(BigInt),
            data: events[n]!.data,
            metadata: events[n]!.metadata,
            recordedAt: expect.any(Date),
          });
          expect(Math.abs(event.recordedAt.getTime() - before)).toBeLessThan(60_000);
        });
        expectStrictlyIncreasing(read.map((event) => event.globalPosition));
        expect(read[0]!.globalPosition).toBe(result.firstGlobalPosition);
        expect(read[2]!.globalPosition).toBe(result.lastGlobalPosition);
      });

      it('stores metadata as {} when omitted', async () => {
        const stream = streamName('no-metadata');
        await store.append(stream, [{ id: randomUUID(), type: 'Bare', data: {} }], NO_STREAM);
        expect((await store.read(stream))[0]!.metadata).toEqual({});
      });

      it('refuses no_stream on an existing stream with the actual revision and current events', async () => {
        const stream = streamName('exists');
        const first = newEvents(2);
        await store.append(stream, first, NO_STREAM);

        const error = await rejectionOf(store.append(stream, newEvents(1), NO_STREAM));

        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        const wrong = error as WrongExpectedVersionError;
        expect(wrong.streamName).toBe(stream);
        expect(wrong.expected).toBe(NO_STREAM);
        expect(wrong.actual).toBe(1n);
        expectCurrentEvents(wrong, first);
        if (!differences.noCurrentEvents) {
          expect(wrong.currentEvents?.map((event) => event.streamPosition)).toEqual([0n, 1n]);
        }
        expect(await stored(stream)).toBe(2);
      });

      it('appends on an exact revision match and refuses a lower or higher one', async () => {
        const stream = streamName('exact');
        await store.append(stream, newEvents(2), NO_STREAM);

        const result = await store.append(stream, newEvents(1), 1n);
        expect(result.nextExpectedRevision).toBe(2n);

        for (const expected of [1n, 0n, 3n, 100n]) {
          const error = await rejectionOf(store.append(stream, newEvents(1), expected));
          expect(error).toBeInstanceOf(WrongExpectedVersionError);
          expect((error as WrongExpectedVersionError).expected).toBe(expected);
          expect((error as WrongExpectedVersionError).actual).toBe(2n);
          const { currentEvents } = error as WrongExpectedVersionError;
          if (differences.noCurrentEvents) expect(currentEvents).toBeUndefined();
          else expect(currentEvents).toHaveLength(3);
        }
        expect(await stored(stream)).toBe(3);
        expect((await store.read(stream)).map((event) => event.streamPosition)).toEqual([0n, 1n, 2n]);
      });

      it('refuses an exact revision on a missing stream with actual no_stream and creates nothing', async () => {
        const stream = streamName('missing');

        const error = await rejectionOf(store.append(stream, newEvents(1), 0n));

        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).actual).toBe(NO_STREAM);
        expect((error as WrongExpectedVersionError).currentEvents ?? []).toEqual([]);
        expect(await store.read(stream)).toEqual([]);
        // The stream still counts as missing: no_stream succeeds.
        await store.append(stream, newEvents(1), NO_STREAM);
        expect(await stored(stream)).toBe(1);
      });

      it('appends with any to a new and to an existing stream', async () => {
        const stream = streamName('any');
        expect((await store.append(stream, newEvents(2), ANY)).nextExpectedRevision).toBe(1n);
        expect((await store.append(stream, newEvents(1), ANY)).nextExpectedRevision).toBe(2n);
        expect(await stored(stream)).toBe(3);
      });

      it('lets exactly one of 50 concurrent appends with the same expected revision win', async () => {
        const stream = streamName('race');
        const initial = newEvents(1);
        await store.append(stream, initial, NO_STREAM);
        const attempts = Array.from({ length: 50 }, () => newEvents(2, 'Claimed'));
        await warmUp(stream);

        const settled = await Promise.allSettled(attempts.map((events) => store.append(stream, events, 0n)));

        const winners = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [i] : []));
        expect(winners).toHaveLength(1);
        const winner = attempts[winners[0]!]!;
        for (const s of settled) {
          if (s.status === 'fulfilled') continue;
          expect(s.reason).toBeInstanceOf(WrongExpectedVersionError);
          const wrong = s.reason as WrongExpectedVersionError;
          expect(wrong.expected).toBe(0n);
          expect(wrong.actual).toBe(2n);
          expectCurrentEvents(wrong, [...initial, ...winner]);
        }
        expect(ids(await store.read(stream))).toEqual([...ids(initial), ...ids(winner)]);
        expect(await stored(stream)).toBe(3);
      });

      it.each([['without'], ['with']])(
        'lets exactly one of 20 concurrent first claims (no_stream) win, on each of 10 streams, %s a stream id',
        async (withId) => {
          const streams = Array.from({ length: 10 }, (_, i) => streamName(`first-claim-${withId}-${i}`));
          await warmUp(streams[0]!);
          const ids = streams.map(() => (withId === 'with' ? randomUUID() : undefined));

          const settled = await Promise.all(
            streams.map((stream, i) =>
              Promise.allSettled(
                Array.from({ length: 20 }, () =>
                  store.append(stream, newEvents(1, 'Claimed'), NO_STREAM, { streamId: ids[i] }),
                ),
              ),
            ),
          );
          for (const [i, results] of settled.entries()) {
            expect(results.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
            for (const s of results) {
              if (s.status === 'rejected') {
                expect(s.reason).toBeInstanceOf(WrongExpectedVersionError);
                expect((s.reason as WrongExpectedVersionError).actual).toBe(0n);
              }
            }
            expect(await stored(streams[i]!)).toBe(1);
            if (ids[i]) expect(await store.findStreamName(ids[i]!)).toBe(streams[i]);
          }
        },
      );

      it('rejects malformed arguments before writing', async () => {
        const stream = streamName('malformed');
        expect(await rejectionOf(store.append(stream, [], NO_STREAM))).toBeInstanceOf(TypeError);
        expect(
          await rejectionOf(store.append(stream, [{ id: 'not-a-uuid', type: 'X', data: {} }], ANY)),
        ).toBeInstanceOf(TypeError);
        expect(await rejectionOf(store.append(stream, newEvents(1), -1n))).toBeInstanceOf(RangeError);
        expect(await rejectionOf(store.readAll(-1n, -1))).toBeInstanceOf(RangeError);
        expect(await store.read(stream)).toEqual([]);
      });
    });

    describe('idempotent retries', () => {
      it('deduplicates a retry with the same event ids: same positions, nothing new', async () => {
        const stream = streamName('retry');
        const events = newEvents(3);
        const first = await store.append(stream, events, NO_STREAM);

        const retry = await store.append(stream, events, NO_STREAM);

        expect(retry).toEqual({ ...first, deduplicated: repeatFlag });
        expect(await stored(stream)).toBe(3);
      });

      it('deduplicates a retry after a lost response, even when others appended since', async () => {
        const stream = streamName('lost-response');
        const claim = newEvents(2);
        // The response to this append is "lost": the caller never learns it succeeded.
        void (await store.append(stream, claim, NO_STREAM));
        const later = newEvents(1);
        await store.append(stream, later, ANY);

        const retry = await store.append(stream, claim, NO_STREAM);

        const read = await store.read(stream);
        expect(ids(read)).toEqual([...ids(claim), ...ids(later)]);
        expect(retry.deduplicated).toBe(repeatFlag);
        expect(retry.nextExpectedRevision).toBe(1n);
        expect(retry.firstGlobalPosition).toBe(read[0]!.globalPosition);
        expect(retry.lastGlobalPosition).toBe(read[1]!.globalPosition);
        expect(await stored(stream)).toBe(3);
      });

      it('writes concurrent retries of one append once (new stream and existing stream)', async () => {
        const stream = streamName('concurrent-retry');
        const claim = newEvents(2);
        await warmUp(stream);
        const created = await Promise.all(
          Array.from({ length: 10 }, () => store.append(stream, claim, NO_STREAM)),
        );
        expect(created.filter((r) => !r.deduplicated)).toHaveLength(repeatFlag ? 1 : 10);
        expect(new Set(created.map((r) => r.firstGlobalPosition)).size).toBe(1);

        const more = newEvents(2);
        const appended = await Promise.all(Array.from({ length: 10 }, () => store.append(stream, more, ANY)));
        expect(appended.filter((r) => !r.deduplicated)).toHaveLength(repeatFlag ? 1 : 10);
        expect(new Set(appended.map((r) => r.nextExpectedRevision))).toEqual(new Set([3n]));

        expect(ids(await store.read(stream))).toEqual([...ids(claim), ...ids(more)]);
        expect(await stored(stream)).toBe(4);
      });

      it('refuses reused event ids that are not the same append, writing nothing', async () => {
        const stream = streamName('overlap');
        const other = streamName('overlap-other');
        const [a, b] = newEvents(2);
        const [c] = newEvents(1);
        await store.append(stream, [a!, b!], NO_STREAM);
        if (differences.perStreamEventIds) {
          // Ids are an idempotency key per stream, best effort under `any` (EventStoreDB "Idempotence").
          for (const events of [
            [a!, c!],
            [b!, a!],
            [c!, c!],
          ]) {
            expect(await rejectionOf(store.append(stream, events, ANY))).toBeInstanceOf(EventIdConflictError);
          }
          expect(ids(await store.read(stream))).toEqual(ids([a!, b!]));
          expect(await stored(stream)).toBe(2);
          await store.append(other, [a!], ANY); // an id of another stream: a new event there
          expect(await stored(other)).toBe(1);
          await store.append(stream, [c!, b!], ANY); // a first id the stream has not seen: a new append
          expect(ids(await store.read(stream))).toEqual(ids([a!, b!, c!, b!]));
          return;
        }

        const attempts = [
          store.append(stream, [a!, c!], ANY), // partial overlap, known id first
          store.append(stream, [c!, b!], ANY), // partial overlap, known id last
          store.append(stream, [b!, a!], ANY), // same ids, different order
          store.append(other, [a!], ANY), // id of another stream
          store.append(stream, [c!, c!], ANY), // the same id twice
        ];
        for (const attempt of attempts) {
          expect(await rejectionOf(attempt)).toBeInstanceOf(EventIdConflictError);
        }
        expect(ids(await store.read(stream))).toEqual(ids([a!, b!]));
        expect(await stored(stream)).toBe(2);
        expect(await stored(other)).toBe(0);
      });
    });

    describe('reading', () => {
      it('reads a stream from a revision, and a missing stream as []', async () => {
        const stream = streamName('read');
        const events = newEvents(5);
        await store.append(stream, events.slice(0, 2), NO_STREAM);
        await store.append(stream, events.slice(2), 1n);

        const tail = await store.read(stream, { fromRevision: 2n });
        expect(tail.map((event) => event.streamPosition)).toEqual([2n, 3n, 4n]);
        expect(ids(tail)).toEqual(ids(events.slice(2)));
        expect(await store.read(stream, { fromRevision: 5n })).toEqual([]);
        expect(await store.read(streamName('never-written'))).toEqual([]);
      });

      it('readAll returns every stream in global order, honours limits and pages by checkpoint', async () => {
        const marker = await store.append(streamName('marker'), newEvents(1), NO_STREAM);
        const s1 = streamName('all-1');
        const s2 = streamName('all-2');
        const s3 = streamName('all-3');
        const written = [
          ...(await appendAndRead(s1, 2)),
          ...(await appendAndRead(s2, 1)),
          ...(await appendAndRead(s1, 1)),
          ...(await appendAndRead(s3, 3)),
        ];

        const all = await readAllUntil(store, marker.lastGlobalPosition, written.length);
        expect(ids(all)).toEqual(written);
        expectStrictlyIncreasing(all.map((event) => event.globalPosition));
        expect(all.map((event) => event.streamName)).toEqual([s1, s1, s2, s1, s3, s3, s3]);

        const firstTwo = await readAllPage(store, marker.lastGlobalPosition, 2);
        expect(ids(firstTwo)).toEqual(written.slice(0, 2));
        expect(await store.readAll(marker.lastGlobalPosition, 0)).toEqual([]);
        const head = all[all.length - 1]!.globalPosition;
        expect(await store.readAll(head, 10)).toEqual([]);

        // pages of at most two, each from the last one's checkpoint (an empty page is asked again:
        // readAll may lag behind commits for a moment, see readAllUntil)
        const paged = await readAllUntil(store, marker.lastGlobalPosition, written.length, 2);
        expect(ids(paged)).toEqual(written);
        expect(await store.readAll(paged[paged.length - 1]!.globalPosition, 2)).toEqual([]);
        expect(paged).toEqual(all);

        const start = await readAllPage(store, -1n, 1);
        expect(start).toHaveLength(1);
        expect(start[0]!.globalPosition).toBeLessThanOrEqual(marker.firstGlobalPosition);
      });

      it('backlogAfter, where the store has it, counts what readAll would return next, up to the cap', async () => {
        if (!store.backlogAfter) return;
        const marker = await store.append(streamName('backlog-marker'), newEvents(1), NO_STREAM);
        const written = await appendAndRead(streamName('backlog'), 3);
        const all = await readAllUntil(store, marker.lastGlobalPosition, written.length);
        expect(ids(all)).toEqual(written);

        const backlog = await store.backlogAfter(marker.lastGlobalPosition, 10);
        expect(backlog).toMatchObject({ events: 3, capped: false });
        expect(backlog.seconds).toBeGreaterThanOrEqual(0);
        expect(await store.backlogAfter(marker.lastGlobalPosition, 2)).toMatchObject({
          events: 2,
          capped: true,
        });
        expect(await store.backlogAfter(all[all.length - 1]!.globalPosition, 10)).toEqual({
          events: 0,
          capped: false,
          seconds: 0,
        });
      });

      async function appendAndRead(stream: string, count: number): Promise<string[]> {
        const events = newEvents(count);
        await store.append(stream, events, ANY);
        return ids(events);
      }
    });

    describe('appendBatch', () => {
      it('reports each request on its own: a failed check never fails the others', async () => {
        const existing = streamName('batch-existing');
        const fresh = streamName('batch-fresh');
        const missing = streamName('batch-missing');
        const audit = streamName('batch-audit');
        const [e0] = newEvents(1);
        await store.append(existing, [e0!], NO_STREAM);
        const freshEvents = newEvents(2);
        const next = newEvents(1);
        const auditEvents = newEvents(1);

        const outcomes = await store.appendBatch([
          { streamName: fresh, events: freshEvents, expectedRevision: ANY },
          { streamName: existing, events: newEvents(1), expectedRevision: NO_STREAM },
          { streamName: existing, events: next, expectedRevision: 0n },
          { streamName: missing, events: newEvents(1), expectedRevision: 5n },
          { streamName: audit, events: auditEvents, expectedRevision: NO_STREAM },
        ]);

        expect(outcomes.map((o) => o.ok)).toEqual([true, false, true, false, true]);
        const [freshOk, existingFail, existingOk, missingFail, auditOk] = outcomes;
        expect(freshOk).toMatchObject({ ok: true, nextExpectedRevision: 1n, deduplicated: false });
        expect(existingOk).toMatchObject({ ok: true, nextExpectedRevision: 1n });
        expect(auditOk).toMatchObject({ ok: true, nextExpectedRevision: 0n });
        if (existingFail?.ok !== false || missingFail?.ok !== false) throw new Error('expected failures');
        expect(existingFail.error).toBeInstanceOf(WrongExpectedVersionError);
        expect(existingFail.error.streamName).toBe(existing);
        expect(existingFail.error.expected).toBe(NO_STREAM);
        expect(existingFail.error.actual).toBe(0n);
        expectCurrentEvents(existingFail.error, [e0!]);
        expect(missingFail.error.actual).toBe(NO_STREAM);

        expect(ids(await store.read(fresh))).toEqual(ids(freshEvents));
        expect(ids(await store.read(existing))).toEqual([e0!.id, ...ids(next)]);
        expect(await store.read(missing)).toEqual([]);
        expect(ids(await store.read(audit))).toEqual(ids(auditEvents));
        expect(await stored(existing)).toBe(2);
        expect(await stored(missing)).toBe(0);

        const retried = await store.appendBatch([
          { streamName: fresh, events: freshEvents, expectedRevision: ANY },
        ]);
        expect(retried[0]).toMatchObject({ ok: true, deduplicated: repeatFlag });
        expect(await stored(fresh)).toBe(2);
        expect(await store.appendBatch([])).toEqual([]);
      });

      it('writes concurrent batches on overlapping streams without losing events', async () => {
        const streams = [streamName('batch-a'), streamName('batch-b'), streamName('batch-c')];
        const batches = Array.from({ length: 10 }, (_, i) =>
          // Each batch names the streams in another order (rotated, every other one reversed).
          rotate(streams, i).map((stream) => ({
            streamName: stream,
            events: newEvents(1, 'Audit'),
            expectedRevision: ANY,
          })),
        );

        const outcomes = await Promise.all(batches.map((batch) => store.appendBatch(batch)));

        expect(outcomes.flat().every((o) => o.ok)).toBe(true);
        for (const stream of streams) {
          expect(await stored(stream)).toBe(10);
          expect((await store.read(stream)).map((e) => e.streamPosition)).toEqual(
            Array.from({ length: 10 }, (_, n) => BigInt(n)),
          );
        }
      });
    });

    describe('truncate before (retention compaction)', () => {
      it('removes events below a revision, keeps the revision counter, and appends go on', async () => {
        const stream = streamName('truncate');
        const events = newEvents(5);
        await store.append(stream, events, NO_STREAM);
        const before = await store.readAll(-1n, 1_000_000);
        const deleted = await store.truncateBefore(stream, 3n);
        expect(deleted === 3n || deleted === -1n).toBe(true);
        const left = await store.read(stream);
        expect(left.map((e) => e.streamPosition)).toEqual([3n, 4n]);
        expect(left.map((e) => e.id)).toEqual([events[3]!.id, events[4]!.id]);
        await expect(store.append(stream, newEvents(1), 1n)).rejects.toBeInstanceOf(
          WrongExpectedVersionError,
        );
        const next = await store.append(stream, newEvents(1), 4n);
        expect(next.nextExpectedRevision).toBe(5n);
        const after = await store.readAll(-1n, 1_000_000);
        const removed = new Set(events.slice(0, 3).map((e) => e.id));
        const afterIds = new Set(after.map((e) => e.id));
        // Compared by ids, not counts: readAll may lag behind commits while any transaction of
        // the server is open, so another test's work can show up between the two reads.
        if (differences.readAllKeepsTruncatedEvents) {
          expect(after.filter((e) => removed.has(e.id))).toHaveLength(3);
          expect(before.filter((e) => !afterIds.has(e.id))).toEqual([]);
        } else {
          expect(after.some((e) => removed.has(e.id))).toBe(false);
          expect(before.filter((e) => !removed.has(e.id) && !afterIds.has(e.id))).toEqual([]);
        }
      });
    });

    describe('stream id alias', () => {
      it('resolves the stream created with a streamId and nothing else', async () => {
        const stream = streamName('alias');
        const streamId = randomUUID();
        await store.append(stream, newEvents(1), NO_STREAM, { streamId });
        await store.append(stream, newEvents(1), 0n, { streamId: randomUUID() });

        expect(await store.findStreamName(streamId)).toBe(stream);
        expect(await store.findStreamName(streamId.toUpperCase())).toBe(stream);
        expect(await store.findStreamName(randomUUID())).toBeNull();
        expect(await store.findStreamName('not-a-uuid')).toBeNull();
      });

      it('refuses a streamId that already names another stream, writing nothing', async () => {
        const streamId = randomUUID();
        await store.append(streamName('alias-owner'), newEvents(1), NO_STREAM, { streamId });
        const intruder = streamName('alias-intruder');

        const error = await rejectionOf(store.append(intruder, newEvents(1), NO_STREAM, { streamId }));

        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(WrongExpectedVersionError);
        expect(await stored(intruder)).toBe(0);
      });
    });

    describe('close', () => {
      it(
        'is idempotent; later calls raise EventStoreUnavailableError',
        async () => {
          const other = await factory();
          try {
            await other.store.append(streamName('close'), newEvents(1), NO_STREAM);
            await other.store.close();
            await other.store.close();
            expect(await rejectionOf(other.store.read('x'))).toBeInstanceOf(EventStoreUnavailableError);
            expect(await rejectionOf(other.store.append('x', newEvents(1), ANY))).toBeInstanceOf(
              EventStoreUnavailableError,
            );
          } finally {
            await other.cleanup();
          }
        },
        setupTimeout,
      );
    });
  });
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const rotated = [...items.slice(by % items.length), ...items.slice(0, by % items.length)];
  return by % 2 === 0 ? rotated : rotated.reverse();
}
