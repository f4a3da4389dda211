import {
  ANY,
  EventIdConflictError,
  NO_STREAM,
  WrongExpectedVersionError,
} from '../../src/event-store/event-store.port.js';
import type { SqlEventStore } from '../../src/event-store/sql-event-store.js';
import { AuditWriter } from '../../src/operations/audit-writer.js';
import type { RecordedEvent } from '../../src/event-store/event-store.port.js';
import { expectStrictlyIncreasing, ids, newEvents, sleep, streamName } from './event-store-test-kit.js';
import { appendRaw, countStoredEvents } from './sql-test-kit.js';

/** Transaction id of a global position (positions are `xid << 20 + index`, migration 1). */
const transactionOf = (position: bigint) => position >> 20n;

/** Pages `readAll` from the start until every id of `wanted` was read (readAll may lag commits). */
async function readAllUntilSeen(store: SqlEventStore, wanted: ReadonlySet<string>): Promise<RecordedEvent[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const all: RecordedEvent[] = [];
    for (let page = await store.readAll(-1n, 1000); page.length > 0;) {
      all.push(...page);
      page = await store.readAll(page[page.length - 1]!.globalPosition, 1000);
    }
    const seen = all.filter((e) => wanted.has(e.id)).length;
    if (seen >= wanted.size || Date.now() > deadline) return all;
    await sleep(50);
  }
}

/** Options of {@link describeGroupCommit}. */
export interface GroupCommitOptions {
  /**
   * The store `open` returns is shared with other tests of the file, which close it: the suite
   * leaves it open. Its tests use unique stream names, and read `readAll` only for their own
   * events, so a store other tests use is as good as a new one (and saves a start, ≈ 1–2 CPU-s).
   */
  readonly keepOpen?: boolean;
}

/**
 * Group commit of the SQL stores (SqlEventStore): `no_stream` appends arriving together are
 * written by one set-based statement, and an `appendBatch` of `any` appends by another — which is
 * what `AuditWriter` sends, through the same GroupCommit. Every append must still get exactly the
 * answer it would get alone — checked here by reading back what is stored, not by trusting the
 * returned positions.
 */
export function describeGroupCommit(
  name: string,
  open: () => Promise<SqlEventStore>,
  options: GroupCommitOptions = {},
): void {
  describe(`group commit: ${name}`, () => {
    let store: SqlEventStore;
    beforeAll(async () => {
      store = await open();
    }, 30_000);
    afterAll(() => (options.keepOpen ? undefined : store?.close()));

    it('answers revision look-ups arriving together with each stream as committed', async () => {
      const streams = Array.from({ length: 30 }, () => streamName('gc-revision'));
      for (const [i, stream] of streams.entries()) {
        if (i % 3 !== 0) await store.append(stream, newEvents(1 + (i % 4)), NO_STREAM);
      }
      const revisions = await Promise.all([...streams, ...streams].map((s) => store.currentRevision(s)));
      const expected = await Promise.all(
        streams.map(async (s) => {
          const events = await store.read(s);
          return events.length === 0 ? null : events[events.length - 1]!.streamPosition;
        }),
      );
      expect(revisions).toEqual([...expected, ...expected]);
      expect(expected.filter((r) => r === null)).toHaveLength(10);
    });

    it('answers a mixed burst of no_stream appends each as if it were alone', async () => {
      const existing = Array.from({ length: 10 }, () => ({
        stream: streamName('gc-existing'),
        events: newEvents(2),
      }));
      const retried = Array.from({ length: 10 }, () => ({
        stream: streamName('gc-retry'),
        events: newEvents(2),
      }));
      for (const { stream, events } of [...existing, ...retried])
        await store.append(stream, events, NO_STREAM);
      const stolenId = existing[0]!.events[0]!.id;
      const fresh = Array.from({ length: 150 }, () => ({
        stream: streamName('gc-new'),
        events: newEvents(2),
      }));
      const thief = { stream: streamName('gc-thief'), events: [{ ...newEvents(1)[0]!, id: stolenId }] };

      const [freshResults, existingErrors, retryResults, thiefError] = await Promise.all([
        Promise.all(fresh.map(({ stream, events }) => store.append(stream, events, NO_STREAM))),
        Promise.all(
          existing.map(({ stream }) =>
            store.append(stream, newEvents(1), NO_STREAM).catch((e: unknown) => e),
          ),
        ),
        Promise.all(retried.map(({ stream, events }) => store.append(stream, events, NO_STREAM))),
        store.append(thief.stream, thief.events, NO_STREAM).catch((e: unknown) => e),
      ]);

      // fresh streams: created with exactly their two events, at the positions returned
      for (const [i, { stream, events }] of fresh.entries()) {
        const stored = await store.read(stream);
        expect(ids(stored)).toEqual(ids(events));
        expect(stored.map((e) => e.streamPosition)).toEqual([0n, 1n]);
        expect(freshResults[i]).toEqual({
          nextExpectedRevision: 1n,
          firstGlobalPosition: stored[0]!.globalPosition,
          lastGlobalPosition: stored[1]!.globalPosition,
          deduplicated: false,
        });
      }
      // they really were written together: fewer transactions than appends
      const transactions = new Set(freshResults.map((r) => transactionOf(r.firstGlobalPosition)));
      expect(transactions.size).toBeLessThan(fresh.length);
      // existing streams: refused with their events, nothing written
      for (const [i, { stream, events }] of existing.entries()) {
        const error = existingErrors[i] as WrongExpectedVersionError;
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error.actual).toBe(1n);
        expect(ids(error.currentEvents ?? [])).toEqual(ids(events));
        expect(await countStoredEvents(store.executor, stream)).toBe(2);
      }
      // retries of stored appends: deduplicated, nothing new
      for (const [i, { stream }] of retried.entries()) {
        expect(retryResults[i]!.deduplicated).toBe(true);
        expect(await countStoredEvents(store.executor, stream)).toBe(2);
      }
      // an id already used by another stream: refused, and its stream was not created
      expect(thiefError).toBeInstanceOf(EventIdConflictError);
      expect(await store.read(thief.stream)).toEqual([]);
      expect(await countStoredEvents(store.executor, existing[0]!.stream)).toBe(2);

      // readAll holds every fresh event once, in strictly increasing global order
      const freshIds = new Set(fresh.flatMap(({ events }) => ids(events)));
      const all = await readAllUntilSeen(store, freshIds);
      expect(all.filter((e) => freshIds.has(e.id))).toHaveLength(freshIds.size);
      expectStrictlyIncreasing(all.map((e) => e.globalPosition));
    });

    it('answers a repeated refusal of an unchanged stream from memory, and sees changes made elsewhere', async () => {
      const stream = streamName('gc-known');
      const stored = newEvents(3);
      await store.append(stream, stored, NO_STREAM);
      const refusal = async () => {
        const error = await store.append(stream, newEvents(1), NO_STREAM).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        return error as WrongExpectedVersionError;
      };
      const first = await refusal();
      const second = await refusal();
      expect(ids(second.currentEvents!)).toEqual(ids(stored));
      expect(second.currentEvents).toBe(first.currentEvents); // the held copy, not sent again
      expect(Object.isFrozen(second.currentEvents![0]!.data)).toBe(true);

      // another writer appends (raw SQL, as another process would): the refusal sees it
      const later = newEvents(1, 'Later');
      await appendRaw(store.executor, stream, later, '2');
      const third = await refusal();
      expect(third.actual).toBe(3n);
      expect(ids(third.currentEvents!)).toEqual([...ids(stored), ...ids(later)]);

      // another process truncates (retention): the held copy is not used any more
      await store.executor.query('select ledger_truncate_before($1, 2)', [stream]);
      const fourth = await refusal();
      expect(fourth.actual).toBe(3n);
      expect(fourth.currentEvents!.map((e) => e.streamPosition)).toEqual([2n, 3n]);
      expect(await countStoredEvents(store.executor, stream)).toBe(2);
    });

    it('answers a mixed burst of appends at exact revisions each as if it were alone', async () => {
      const created = Array.from({ length: 70 }, () => ({
        stream: streamName('gc-rev'),
        events: newEvents(2),
      }));
      await Promise.all(created.map(({ stream, events }) => store.append(stream, events, NO_STREAM)));
      const current = created.slice(0, 40).map((c) => ({ ...c, next: newEvents(2, 'Next') }));
      const stale = created.slice(40, 50);
      const retried = created.slice(50, 60).map((c) => ({ ...c, next: newEvents(1, 'Once') }));
      for (const { stream, next } of retried) await store.append(stream, next, 1n); // now at revision 2
      const thieves = created.slice(60, 70).map((c, i) => ({
        ...c,
        next: [{ ...newEvents(1)[0]!, id: created[i]!.events[0]!.id }], // an id another stream holds
      }));

      const [currentResults, staleErrors, retryResults, thiefErrors] = await Promise.all([
        Promise.all(current.map(({ stream, next }) => store.append(stream, next, 1n))),
        Promise.all(
          stale.map(({ stream }) => store.append(stream, newEvents(1), 0n).catch((e: unknown) => e)),
        ),
        Promise.all(retried.map(({ stream, next }) => store.append(stream, next, 1n))),
        Promise.all(
          thieves.map(({ stream, next }) => store.append(stream, next, 1n).catch((e: unknown) => e)),
        ),
      ]);

      for (const [i, { stream, events, next }] of current.entries()) {
        const stored = await store.read(stream);
        expect(ids(stored)).toEqual([...ids(events), ...ids(next)]);
        expect(currentResults[i]).toEqual({
          nextExpectedRevision: 3n,
          firstGlobalPosition: stored[2]!.globalPosition,
          lastGlobalPosition: stored[3]!.globalPosition,
          deduplicated: false,
        });
        expect(store.peek(stream)).toEqual(stored); // the held copy is the stored stream, exactly
      }
      for (const [i, { stream, events }] of stale.entries()) {
        const error = staleErrors[i] as WrongExpectedVersionError;
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect(error.actual).toBe(1n);
        expect(ids(error.currentEvents ?? [])).toEqual(ids(events));
        expect(await countStoredEvents(store.executor, stream)).toBe(2);
      }
      for (const [i, { stream }] of retried.entries()) {
        expect(retryResults[i]!.deduplicated).toBe(true);
        expect(await countStoredEvents(store.executor, stream)).toBe(3);
      }
      for (const [i, { stream }] of thieves.entries()) {
        expect(thiefErrors[i]).toBeInstanceOf(EventIdConflictError);
        expect(await countStoredEvents(store.executor, stream)).toBe(2);
      }
    });

    it('writes appends at exact revisions that arrive together in fewer transactions', async () => {
      const streams = Array.from({ length: 40 }, () => streamName('gc-rev-together'));
      await Promise.all(streams.map((stream) => store.append(stream, newEvents(1), NO_STREAM)));
      const results = await Promise.all(streams.map((stream) => store.append(stream, newEvents(1), 0n)));
      const transactions = new Set(results.map((r) => transactionOf(r.firstGlobalPosition)));
      expect(transactions.size).toBeLessThan(streams.length);
      for (const stream of streams) expect(await countStoredEvents(store.executor, stream)).toBe(2);
    });

    it('lets exactly one of 30 concurrent appends at one revision of one stream win', async () => {
      const stream = streamName('gc-rev-race');
      await store.append(stream, newEvents(1), NO_STREAM);
      const outcomes = await Promise.all(
        Array.from({ length: 30 }, () =>
          store.append(stream, newEvents(1), 0n).then(
            () => 'won',
            (e: unknown) => e,
          ),
        ),
      );
      expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
      for (const o of outcomes.filter((o) => o !== 'won')) {
        expect(o).toBeInstanceOf(WrongExpectedVersionError);
        expect((o as WrongExpectedVersionError).actual).toBe(1n);
      }
      expect(await countStoredEvents(store.executor, stream)).toBe(2);
      expect(store.peek(stream)).toEqual(await store.read(stream));
    });

    it('holds a stream exactly as stored while only its own appends change it, and lets go otherwise', async () => {
      const stream = streamName('gc-held');
      await store.append(stream, newEvents(2), NO_STREAM);
      expect(store.peek(stream)).toEqual(await store.read(stream));
      await store.append(stream, newEvents(1, 'Step'), 1n);
      await store.append(stream, newEvents(2, 'Done'), 2n);
      expect(store.peek(stream)).toEqual(await store.read(stream));

      // another process appends: the copy is behind, and the next append here says so
      await appendRaw(store.executor, stream, newEvents(1, 'Elsewhere'), '4');
      const refused = await store.append(stream, newEvents(1), 4n).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(WrongExpectedVersionError);
      expect(store.peek(stream)).toEqual(await store.read(stream)); // the refusal's stream is held
      await store.append(stream, newEvents(1, 'After'), 5n);
      expect(store.peek(stream)).toEqual(await store.read(stream));

      // appends it cannot follow, and truncation, drop the copy
      await store.append(stream, newEvents(1), ANY);
      expect(store.peek(stream)).toBeUndefined();
      const read = await store.read(stream, { hold: true });
      expect(store.peek(stream)).toEqual(read);
      await store.truncateBefore(stream, 2n);
      expect(store.peek(stream)).toBeUndefined();
    });

    it('lets exactly one of 40 concurrent no_stream appends to one stream win', async () => {
      const stream = streamName('gc-race');
      const attempts = Array.from({ length: 40 }, () => newEvents(1));
      const outcomes = await Promise.all(
        attempts.map((events) =>
          store.append(stream, events, NO_STREAM).then(
            () => 'won',
            (e: unknown) => e,
          ),
        ),
      );
      expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
      for (const o of outcomes.filter((o) => o !== 'won')) {
        expect(o).toBeInstanceOf(WrongExpectedVersionError);
        expect((o as WrongExpectedVersionError).actual).toBe(0n);
      }
      expect(await countStoredEvents(store.executor, stream)).toBe(1);
    });

    it('writes an appendBatch of any appends with repeated streams in request order', async () => {
      const a = streamName('gc-any-a');
      const b = streamName('gc-any-b');
      await store.append(a, newEvents(3), NO_STREAM); // a is at revision 2
      const requests = [
        { streamName: a, events: newEvents(2, 'A1'), expectedRevision: ANY },
        { streamName: b, events: newEvents(1, 'B1'), expectedRevision: ANY },
        { streamName: a, events: newEvents(1, 'A2'), expectedRevision: ANY },
        { streamName: b, events: newEvents(2, 'B2'), expectedRevision: ANY },
      ];
      const outcomes = await store.appendBatch(requests);

      const storedA = await store.read(a);
      const storedB = await store.read(b);
      expect(storedA.map((e) => e.type)).toEqual([
        'Happened-0',
        'Happened-1',
        'Happened-2',
        'A1-0',
        'A1-1',
        'A2-0',
      ]);
      expect(storedB.map((e) => e.type)).toEqual(['B1-0', 'B2-0', 'B2-1']);
      const byId = new Map([...storedA, ...storedB].map((e) => [e.id, e]));
      requests.forEach((request, i) => {
        const outcome = outcomes[i]!;
        if (!outcome.ok) throw outcome.error;
        const first = byId.get(request.events[0]!.id)!;
        const last = byId.get(request.events[request.events.length - 1]!.id)!;
        expect(outcome.nextExpectedRevision).toBe(last.streamPosition);
        expect(outcome.firstGlobalPosition).toBe(first.globalPosition);
        expect(outcome.lastGlobalPosition).toBe(last.globalPosition);
      });
    });

    it('writes an any append with onlyIf only while the other stream is at that revision', async () => {
      const decision = streamName('gc-cond-decision');
      const audit = streamName('gc-cond-audit');
      const missing = streamName('gc-cond-missing');
      await store.append(decision, newEvents(2), NO_STREAM); // revision 1
      const outcomes = await store.appendBatch([
        {
          streamName: audit,
          events: newEvents(1, 'Current'),
          expectedRevision: ANY,
          onlyIf: { streamName: decision, revision: 1n },
        },
        {
          streamName: audit,
          events: newEvents(1, 'Stale'),
          expectedRevision: ANY,
          onlyIf: { streamName: decision, revision: 0n },
        },
        {
          streamName: audit,
          events: newEvents(1, 'Missing'),
          expectedRevision: ANY,
          onlyIf: { streamName: missing, revision: 0n },
        },
        { streamName: audit, events: newEvents(1, 'Plain'), expectedRevision: ANY },
      ]);
      expect(outcomes.map((o) => o.ok)).toEqual([true, false, false, true]);
      const stale = outcomes[1] as { ok: false; error: WrongExpectedVersionError };
      expect(stale.error.streamName).toBe(decision);
      expect(stale.error.actual).toBe(1n);
      expect((outcomes[2] as { ok: false; error: WrongExpectedVersionError }).error.actual).toBe(NO_STREAM);
      const stored = await store.read(audit);
      expect(stored.map((e) => e.type).sort()).toEqual(['Current-0', 'Plain-0']);
      expect(await store.read(missing)).toEqual([]);
      expect(ids(store.peek(decision) ?? [])).toEqual(ids(await store.read(decision))); // held since created
      await store.append(decision, newEvents(1), NO_STREAM).catch(() => undefined);
      expect(ids(store.peek(decision) ?? [])).toEqual(ids(await store.read(decision)));
    });

    it('replays an appendBatch of any appends alone when one reuses an id, so retries still deduplicate', async () => {
      const stream = streamName('gc-any-retry');
      const events = newEvents(2);
      const first = await store.appendBatch([{ streamName: stream, events, expectedRevision: ANY }]);
      const other = streamName('gc-any-other');
      const again = await store.appendBatch([
        { streamName: stream, events, expectedRevision: ANY },
        { streamName: other, events: newEvents(1), expectedRevision: ANY },
      ]);
      expect(again[0]).toEqual({ ...first[0], deduplicated: true });
      expect(again[1]!.ok).toBe(true);
      expect(await countStoredEvents(store.executor, stream)).toBe(2);
      expect(await countStoredEvents(store.executor, other)).toBe(1);
    });

    it('group-commits concurrent audit writes, each answered on its own', async () => {
      const audit = new AuditWriter(store);
      const decision = streamName('gc-audit-decision');
      await store.append(decision, newEvents(2), NO_STREAM); // revision 1
      const shared = streamName('gc-audit-shared');
      const plain = Array.from({ length: 20 }, (_, i) => ({
        stream: i % 2 === 0 ? shared : streamName('gc-audit-own'),
        events: newEvents(1, `Plain${i}`),
      }));
      const current = Array.from({ length: 5 }, () => newEvents(1, 'Current'));
      const stale = Array.from({ length: 5 }, () => newEvents(1, 'Stale'));
      const conditional = streamName('gc-audit-conditional');

      const [, currentResults, staleResults] = await Promise.all([
        Promise.all(plain.map(({ stream, events }) => audit.write(stream, events))),
        Promise.all(
          current.map((events) =>
            audit.writeIfUnchanged(conditional, events, { streamName: decision, revision: 1n }),
          ),
        ),
        Promise.all(
          stale.map((events) =>
            audit.writeIfUnchanged(conditional, events, { streamName: decision, revision: 0n }),
          ),
        ),
      ]);

      expect(currentResults).toEqual(current.map(() => true));
      expect(staleResults).toEqual(stale.map(() => false));
      const storedConditional = await store.read(conditional);
      expect(ids(storedConditional).sort()).toEqual(current.flatMap(ids).sort());
      const storedShared = await store.read(shared);
      expect(ids(storedShared)).toEqual(
        plain.filter((p) => p.stream === shared).flatMap((p) => ids(p.events)),
      );
      for (const { stream, events } of plain.filter((p) => p.stream !== shared)) {
        expect(ids(await store.read(stream))).toEqual(ids(events));
      }
      // they really were written together: fewer transactions than writes
      const written = [...storedShared, ...storedConditional];
      expect(new Set(written.map((e) => transactionOf(e.globalPosition))).size).toBeLessThan(written.length);
      expect(await store.read(decision)).toHaveLength(2);
    });
  });
}
