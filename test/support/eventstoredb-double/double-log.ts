/**
 * The storage of the EventStoreDB test DOUBLE: one in-memory transaction log, with the server's
 * write rules. Not a substitute for EventStoreDB — it keeps only what the ledger's adapter relies
 * on, reproduced from the server's `IndexCommitter.CheckCommit` (EventStore/EventStore,
 * src/EventStore.Core/Services/Storage/ReaderIndex/IndexCommitter.cs) and the docs
 * (https://developers.eventstore.com/clients/grpc/appending-events, "Idempotence"):
 *
 * - expected version: -2 any, -1 no stream, -4 stream exists, n ≥ 0 the last event number;
 * - `expected < current`: the append is an idempotent repeat when its ids are the stream's events
 *   from `expected + 1` on, in order (the reply is success, nothing is written); a first id that
 *   differs is a wrong expected version, a later one "corrupted idempotency" (answered as a wrong
 *   expected version too);
 * - `any`: best effort — ids are looked up in the committed-ids cache (here: never evicted); all
 *   found in this stream → idempotent, none → written, some → corrupted idempotency;
 * - one writer: appends are applied one at a time, each event gets a log position that grows with
 *   the record size; an implicit transaction's events have commit = prepare = their own position,
 *   and a success reply carries the position of the last event (also for an idempotent repeat).
 *
 * - stream metadata `$tb` (truncate before) hides a stream's older events from stream reads, not
 *   from `$all` (that takes a scavenge, which is not modelled).
 *
 * Not modelled: deletes, tombstones, `$maxAge`/`$maxCount` (stored, never enforced), explicit
 * transactions, scavenging, ACLs, replication.
 */

/** The server's special expected versions (ExpectedVersion.cs). */
export const EXPECTED_ANY = -2n;
export const EXPECTED_NO_STREAM = -1n;
export const EXPECTED_STREAM_EXISTS = -4n;

/** An event offered in an append. */
export interface ProposedEvent {
  readonly id: string;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly metadata: Uint8Array;
}

/** An event in the log. `position` is its log position (commit = prepare). */
export interface LoggedEvent extends ProposedEvent {
  readonly streamName: string;
  readonly revision: bigint;
  readonly position: bigint;
  /** .NET ticks (100 ns) since the Unix epoch, as the server's `created` metadata. */
  readonly createdTicks: bigint;
}

/** Outcome of one append, as the server's WriteEventsCompleted reports it. */
export type WriteOutcome =
  | { readonly kind: 'written' | 'idempotent'; readonly lastRevision: bigint; readonly position: bigint }
  | { readonly kind: 'wrong-expected-version'; readonly currentRevision: bigint };

/** Position of the first event: real logs begin with the server's own records. */
const FIRST_POSITION = 1_024n;
/** Bytes of a prepare record besides names and payloads (a rough, stable stand-in). */
const RECORD_OVERHEAD = 96n;

export class DoubleLog {
  private readonly all: LoggedEvent[] = [];
  private readonly streams = new Map<string, LoggedEvent[]>();
  private readonly committedIds = new Map<string, { streamName: string; revision: bigint }>();
  private readonly appendedListeners = new Set<() => void>();
  private nextPosition = FIRST_POSITION;

  /** Every event in log order (a copy). */
  get events(): readonly LoggedEvent[] {
    return [...this.all];
  }

  /** Events of `streamName` in stream order, or undefined when the stream does not exist. */
  stream(streamName: string): readonly LoggedEvent[] | undefined {
    return this.streams.get(streamName);
  }

  /** The stream's `$tb` metadata: stream reads start at this revision (0n when unset). */
  truncatedBefore(streamName: string): bigint {
    const metadata = this.streams.get(`$$${streamName}`)?.at(-1);
    if (!metadata || metadata.type !== '$metadata') return 0n;
    const tb = (JSON.parse(Buffer.from(metadata.data).toString('utf8')) as { $tb?: unknown }).$tb;
    return typeof tb === 'number' ? BigInt(tb) : 0n;
  }

  /** Number of stored events of a stream (what is stored, never deduplicated on the way out). */
  count(streamName: string): number {
    return this.streams.get(streamName)?.length ?? 0;
  }

  /** Events with position ≥ `from`, in log order. */
  from(position: bigint): readonly LoggedEvent[] {
    let low = 0;
    let high = this.all.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.all[mid]!.position < position) low = mid + 1;
      else high = mid;
    }
    return this.all.slice(low);
  }

  /** Position the next event will get (the end of the log). */
  get endPosition(): bigint {
    return this.nextPosition;
  }

  /** Calls `listener` after every append that wrote events. @returns unsubscribe. */
  onAppended(listener: () => void): () => void {
    this.appendedListeners.add(listener);
    return () => void this.appendedListeners.delete(listener);
  }

  /** Applies one append with the server's rules (see the file comment). */
  append(streamName: string, expected: bigint, events: readonly ProposedEvent[]): WriteOutcome {
    const check = this.check(
      streamName,
      expected,
      events.map((e) => e.id),
    );
    if (check.kind !== 'ok') return check;
    const stream = this.streams.get(streamName) ?? [];
    const createdTicks = BigInt(Date.now()) * 10_000n;
    let position = this.nextPosition;
    for (const event of events) {
      position = this.nextPosition;
      const logged: LoggedEvent = {
        ...event,
        streamName,
        revision: BigInt(stream.length),
        position,
        createdTicks,
      };
      stream.push(logged);
      this.all.push(logged);
      this.committedIds.set(event.id, { streamName, revision: logged.revision });
      this.nextPosition += RECORD_OVERHEAD + recordBytes(logged);
    }
    this.streams.set(streamName, stream);
    if (events.length > 0) for (const listener of this.appendedListeners) listener();
    return { kind: 'written', lastRevision: BigInt(stream.length - 1), position };
  }

  /** The server's CheckCommit: ok, an idempotent repeat, or a wrong expected version. */
  private check(
    streamName: string,
    expected: bigint,
    ids: readonly string[],
  ): WriteOutcome | { readonly kind: 'ok' } {
    const stream = this.streams.get(streamName);
    const current = stream ? BigInt(stream.length - 1) : -1n;
    const wrong = { kind: 'wrong-expected-version', currentRevision: current } as const;
    if (expected === EXPECTED_STREAM_EXISTS && current < 0n && !this.streams.has(`$$${streamName}`)) {
      return wrong;
    }
    if (expected === EXPECTED_ANY || expected === EXPECTED_STREAM_EXISTS) {
      let last: bigint | undefined;
      for (const [i, id] of ids.entries()) {
        const known = this.committedIds.get(id);
        if (!known || known.streamName !== streamName) return i === 0 ? { kind: 'ok' } : wrong;
        last = known.revision;
      }
      if (last === undefined) return { kind: 'ok' };
      return this.idempotent(stream!, last);
    }
    if (expected < current) {
      let revision = expected;
      for (const id of ids) {
        revision += 1n;
        if (stream![Number(revision)]?.id === id) continue;
        return wrong; // the first id differing: wrong version; a later one: corrupted idempotency
      }
      if (revision === expected) return wrong;
      return this.idempotent(stream!, revision);
    }
    if (expected > current) return wrong;
    return { kind: 'ok' };
  }

  private idempotent(stream: readonly LoggedEvent[], lastRevision: bigint): WriteOutcome {
    return { kind: 'idempotent', lastRevision, position: stream[Number(lastRevision)]!.position };
  }
}

function recordBytes(event: LoggedEvent): bigint {
  return BigInt(
    Buffer.byteLength(event.streamName) +
      Buffer.byteLength(event.type) +
      event.data.byteLength +
      event.metadata.byteLength,
  );
}
