import { withoutStoreDeadline } from '../common/store-deadline.js';
import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import {
  ANY,
  type AppendOptions,
  type AppendRequest,
  type AppendResult,
  type Backlog,
  type BatchAppendOutcome,
  type EventStore,
  EventStoreUnavailableError,
  type EventToAppend,
  type ExpectedRevision,
  NO_STREAM,
  type ReadStreamOptions,
  type RecordedEvent,
} from './event-store.port.js';
import type { SqlExecutor, SqlResult, TransactionOptions } from './sql-executor.js';
import { appendAnyTogether } from './sql/any-appends.js';
import { appendAlone, appendBatchAlone } from './sql/append-alone.js';
import { encodeEvents, isUuid } from './sql/append-encoding.js';
import { KnownStreams } from './sql/known-streams.js';
import { NewStreamAppends } from './sql/new-stream-appends.js';
import { RevisionAppends } from './sql/revision-appends.js';
import { type RecordedEventJson, toRecordedEvent } from './sql/recorded-event-json.js';
import { BACKLOG_AFTER } from './sql/statements/backlog-after.js';
import { FIND_STREAM_NAME } from './sql/statements/find-stream-name.js';
import { READ_ALL } from './sql/statements/read-all.js';
import { READ_STREAM } from './sql/statements/read-stream.js';
import { STREAM_REVISIONS } from './sql/statements/stream-revisions.js';
import { TRUNCATE_BEFORE } from './sql/statements/truncate-before.js';

const MAX_LIMIT = 2 ** 31 - 1;

/** Group commit when the adapter sets none: one batch at a time, 64 per batch. */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { maxInFlight: 1, maxBatchSize: 64 };

/** Revision look-ups arriving together leave as one statement, up to 256 streams. */
const REVISION_LOOKUPS: GroupCommitOptions = { maxInFlight: 1, maxBatchSize: 256 };

/** Streams held with their events (`peek`: refused claims, streams written or read for a decision) by default. */
export const DEFAULT_KNOWN_STREAMS = 4096;
/** Approximate bytes of the events of held streams by default (64 MiB). */
export const DEFAULT_KNOWN_STREAM_BYTES = 64 * 1024 * 1024;

/** Options of {@link SqlEventStore}. */
export interface SqlEventStoreOptions {
  /** Group commit of `no_stream` and exact-revision appends; default {@link DEFAULT_GROUP_COMMIT}. */
  readonly groupCommit?: GroupCommitOptions;
  /** Streams held with their events (see `KnownStreams` (sql/known-streams.ts)); default {@link DEFAULT_KNOWN_STREAMS}. */
  readonly knownStreams?: number;
  /** Their approximate size bound, bytes; default {@link DEFAULT_KNOWN_STREAM_BYTES}. */
  readonly knownStreamBytes?: number;
}

/**
 * The event store over the shared SQL schema, written once for PostgreSQL (pg) and PGlite: every
 * method is one statement calling a schema function (`sql/functions/`), so the adapters differ only
 * in how they connect (docs/architecture.md "Event-store adapters — `src/event-store`").
 *
 * - Appends that arrive together leave as one call (`GroupCommit`); each caller still gets
 *   `ledger_append`'s answer. A refused expected revision comes back with the stream's events.
 * - Held copies ({@link peek}) let a worker's follow-ups after its claim be decided without a read.
 * - readAll is bounded by the transaction high-water mark (it lags, never skips): call it outside
 *   a transaction that has written.
 *
 * Errors: `WrongExpectedVersionError`, `EventIdConflictError`, `EventStoreUnavailableError` (from the
 * executor, or after {@link close}), `TypeError`/`RangeError` for malformed arguments, and `Error`
 * when `options.streamId` already names another stream.
 */
export class SqlEventStore implements EventStore {
  #closing: Promise<void> | undefined;
  readonly #appendListeners = new Set<() => void>();
  #watchingOthers = false;
  readonly #newStreams: NewStreamAppends;
  readonly #revisionAppends: RevisionAppends;
  readonly #held: KnownStreams;
  readonly #revisions: GroupCommit<string, bigint | null>;
  /** {@link sql} refusing every statement once the store is closing. */
  readonly #open: SqlExecutor;

  constructor(
    private readonly sql: SqlExecutor,
    private readonly release: () => Promise<void>,
    options: SqlEventStoreOptions = {},
  ) {
    this.#open = new RefusingWhenClosed(sql, () => this.assertOpen());
    this.#held = new KnownStreams(
      options.knownStreams ?? DEFAULT_KNOWN_STREAMS,
      options.knownStreamBytes ?? DEFAULT_KNOWN_STREAM_BYTES,
    );
    const groupCommit = { ...DEFAULT_GROUP_COMMIT, ...options.groupCommit };
    const written = () => this.appendedHere();
    this.#newStreams = new NewStreamAppends(this.#open, this.#held, written, groupCommit);
    this.#revisionAppends = new RevisionAppends(this.#open, this.#held, written, groupCommit);
    this.#revisions = new GroupCommit((names) => this.#lookUpRevisions(names), REVISION_LOOKUPS);
  }

  /** The executor of this store's database, for other tables (projections) in the same database. */
  get executor(): SqlExecutor {
    return this.sql;
  }

  async append(
    streamName: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    const encoded = encodeEvents(streamName, events);
    const streamId = encodeStreamId(options.streamId);
    if (expectedRevision === NO_STREAM) {
      this.assertOpen();
      const settled = await this.#newStreams.submit({ streamName, events, encoded, streamId });
      if (!settled.ok) throw settled.error;
      return settled.result;
    }
    if (typeof expectedRevision === 'bigint' && expectedRevision >= 0n) {
      this.assertOpen();
      const settled = await this.#revisionAppends.submit({
        streamName,
        expected: expectedRevision,
        encoded,
        streamId,
      });
      if (!settled.ok) throw settled.error;
      return settled.result;
    }
    this.#held.forget(streamName);
    const result = await appendAlone(this.#open, { streamName, expectedRevision, encoded, streamId });
    if (!result.deduplicated) this.appendedHere();
    return result;
  }

  async appendBatch(requests: readonly AppendRequest[]): Promise<BatchAppendOutcome[]> {
    if (requests.length === 0) return [];
    const allAny = requests.every((r) => r.expectedRevision === ANY);
    if (!allAny && requests.some((r) => r.onlyIf)) {
      throw new TypeError('appendBatch: onlyIf is supported on appends with expected revision any only');
    }
    for (const request of requests) this.#held.forget(request.streamName);
    if (allAny) {
      this.assertOpen();
      return appendAnyTogether(this.#open, requests, () => this.appendedHere());
    }
    const outcomes = await appendBatchAlone(this.#open, requests);
    if (outcomes.some((o) => o.ok && !o.deduplicated)) this.appendedHere();
    return outcomes;
  }

  async read(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0n;
    if (typeof from !== 'bigint' || from < 0n) {
      throw new RangeError(`fromRevision must be a bigint >= 0, got ${String(from)}`);
    }
    const { rows } = await this.#open.query<{ event: RecordedEventJson }>(READ_STREAM.text, [
      streamName,
      from.toString(),
    ]);
    const events = rows.map((row) => toRecordedEvent(row.event));
    if (options.hold && from === 0n && events.length > 0) {
      const last = events[events.length - 1]!;
      // Its own array: the held one grows with this process's appends.
      this.#held.remember(streamName, last.streamPosition, events[0]!.streamPosition, [...events]);
    }
    return events;
  }

  async readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    if (typeof after !== 'bigint') throw new RangeError('readAll: after must be a bigint (-1n = start)');
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
      throw new RangeError(`readAll: limit must be an integer in 0..${MAX_LIMIT}, got ${limit}`);
    }
    if (limit === 0) return [];
    const { rows } = await this.#open.query<{ event: RecordedEventJson }>(READ_ALL.text, [
      after.toString(),
      limit,
    ]);
    return rows.map((row) => toRecordedEvent(row.event));
  }

  /** The backlog after `after`, counted in SQL below the readers' high-water mark (see the port). */
  async backlogAfter(after: bigint, cap: number): Promise<Backlog> {
    const { rows } = await this.#open.query<{ n: number; s: number | string | null }>(BACKLOG_AFTER.text, [
      after.toString(),
      cap + 1,
    ]);
    const n = Number(rows[0]?.n ?? 0);
    const s = rows[0]?.s;
    return { events: Math.min(n, cap), capped: n > cap, seconds: s == null ? 0 : Math.max(0, Number(s)) };
  }

  async truncateBefore(streamName: string, revision: bigint): Promise<bigint> {
    if (typeof revision !== 'bigint' || revision < 0n) {
      throw new RangeError(`truncateBefore: revision must be a bigint >= 0, got ${String(revision)}`);
    }
    this.#held.forget(streamName);
    const { rows } = await this.#open.query<{ deleted: string | number | bigint }>(TRUNCATE_BEFORE.text, [
      streamName,
      revision.toString(),
    ]);
    return BigInt(rows[0]?.deleted ?? 0);
  }

  async findStreamName(streamId: string): Promise<string | null> {
    if (!isUuid(streamId)) return null;
    const { rows } = await this.#open.query<{ stream_name: string }>(FIND_STREAM_NAME.text, [streamId]);
    return rows[0]?.stream_name ?? null;
  }

  /** Wake-up hint after appends here and, with {@link watchOtherWriters}, by other processes. */
  subscribeToAppends(listener: () => void): () => void {
    this.#appendListeners.add(listener);
    if (!this.#watchingOthers && !this.#closing) {
      this.#watchingOthers = true;
      this.watchOtherWriters(() => this.announceAppended());
    }
    return () => void this.#appendListeners.delete(listener);
  }

  /** The held copy (`KnownStreams`): possibly stale, verify with the write. */
  peek(streamName: string): readonly RecordedEvent[] | undefined {
    return this.#held.get(streamName)?.events;
  }

  /** Look-ups that arrive together are one `= any($1)` read (no transaction id, no commit record). */
  currentRevision(streamName: string): Promise<bigint | null> {
    this.assertOpen();
    return this.#revisions.submit(null, streamName);
  }

  async #lookUpRevisions(names: readonly string[]): Promise<(bigint | null)[]> {
    const { rows } = await this.#open.queryPrepared<{ stream_name: string; stream_position: string }>(
      STREAM_REVISIONS.name,
      STREAM_REVISIONS.text,
      [[...new Set(names)]],
    );
    const revisions = new Map(rows.map((r) => [r.stream_name, BigInt(r.stream_position)]));
    return names.map((name) => revisions.get(name) ?? null);
  }

  close(): Promise<void> {
    this.#appendListeners.clear();
    this.#closing ??= this.release();
    return this.#closing;
  }

  /** Hook for shared databases: call `announce` when another process appends. Called once. */
  protected watchOtherWriters(_announce: () => void): void {}

  /** Hook for shared databases: tell other processes an append committed (a hint). */
  protected signalOtherProcesses(): void {}

  /** Work of no request, so outside the appending request's store deadline. */
  private appendedHere(): void {
    withoutStoreDeadline(() => {
      this.announceAppended();
      this.signalOtherProcesses();
    });
  }

  private announceAppended(): void {
    for (const listener of this.#appendListeners) {
      try {
        listener();
      } catch {
        /* a listener's bug must not fail the append */
      }
    }
  }

  private assertOpen(): void {
    if (this.#closing) throw new EventStoreUnavailableError('The event store is closed');
  }
}

function encodeStreamId(streamId: string | undefined): string | null {
  if (streamId === undefined) return null;
  if (!isUuid(streamId)) throw new TypeError(`streamId must be a UUID, got ${String(streamId)}`);
  return streamId;
}

/** {@link SqlExecutor} that runs `assertOpen` before every statement (a closed store refuses at once). */
class RefusingWhenClosed implements SqlExecutor {
  constructor(
    private readonly sql: SqlExecutor,
    private readonly assertOpen: () => void,
  ) {}

  async query<T>(text: string, params?: unknown[]): Promise<SqlResult<T>> {
    this.assertOpen();
    return this.sql.query<T>(text, params);
  }

  async queryPrepared<T>(name: string, text: string, params: unknown[]): Promise<SqlResult<T>> {
    this.assertOpen();
    return this.sql.queryPrepared<T>(name, text, params);
  }

  async exec(script: string): Promise<void> {
    this.assertOpen();
    return this.sql.exec(script);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T> {
    this.assertOpen();
    return this.sql.transaction(fn, options);
  }
}
