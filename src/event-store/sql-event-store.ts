import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import {
  ANY,
  type AppendOptions,
  type AppendRequest,
  type AppendResult,
  type BatchAppendOutcome,
  EventIdConflictError,
  type EventStore,
  EventStoreUnavailableError,
  type EventToAppend,
  type ExpectedRevision,
  NO_STREAM,
  type ReadStreamOptions,
  type RecordedEvent,
  WrongExpectedVersionError,
} from './event-store.port.js';
import type { SqlExecutor } from './sql-executor.js';
import { encodeEvents, encodeExpectedRevision, isUuid } from './sql/append-encoding.js';
import { APPEND_COLUMNS, type AppendRow, toAppendOutcome } from './sql/append-row.js';
import { type RecordedEventJson, toRecordedEvent } from './sql/recorded-event-json.js';
import {
  APPEND_ANY_STATEMENT,
  type AppendAnyRow,
  CREATE_STREAMS_STATEMENT,
  type CreateStreamsRow,
} from './sql/set-append-statements.js';
import {
  EVENT_ID_CONSTRAINT,
  isUniqueViolation,
  STREAM_ID_CONSTRAINT,
  SqlState,
  sqlStateOf,
} from './sql/sql-error.js';

const MAX_LIMIT = 2 ** 31 - 1;

/** Group commit of `no_stream` appends when the adapter sets none: one batch at a time, 64 per batch. */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { maxInFlight: 1, maxBatchSize: 64 };

/** Options of {@link SqlEventStore}. */
export interface SqlEventStoreOptions {
  /** Group commit of `no_stream` appends (see {@link SqlEventStore}); default {@link DEFAULT_GROUP_COMMIT}. */
  readonly groupCommit?: GroupCommitOptions;
}

/** A `no_stream` append waiting for its group commit. */
interface NewStreamAppend {
  readonly streamName: string;
  readonly events: readonly EventToAppend[];
  readonly encoded: unknown[];
  readonly streamId: string | null;
}

/** Outcome of one append of a group commit: the result, or the error that append alone raises. */
type Settled =
  { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: unknown };

/**
 * The event store over the shared SQL schema (`src/event-store/sql/`), written once for both
 * PostgreSQL (pg) and PGlite: every method is one statement calling a schema function, so the
 * adapters differ only in how they connect. Semantics are the port's (EventStoreDB's).
 *
 * - append / appendBatch: `ledger_append` / `ledger_append_batch`, one round trip; a refused
 *   expected revision comes back with the stream's events (`WrongExpectedVersionError.currentEvents`).
 *   A unique violation on an event id (a concurrent append inserted it first) is retried once, which
 *   then deduplicates or reports the conflict.
 * - Group commit (the claim path): `no_stream` appends that arrive while earlier ones are being
 *   written leave together as one set-based statement (`CREATE_STREAMS_STATEMENT`), and an
 *   `appendBatch` of `any` appends is one such statement too (`APPEND_ANY_STATEMENT`). Results are
 *   per append and the same as `ledger_append`'s; when a set-based statement fails for any reason
 *   but an unreachable database (a reused event id, a race it cannot settle), each of its appends
 *   is replayed alone through `ledger_append`, so every caller gets its own exact answer.
 * - readAll: `ledger_read_all`, bounded by the transaction-id high-water mark. Call it outside a
 *   transaction that has written: a transaction never sees its own events in readAll. While any
 *   transaction of the PostgreSQL cluster holds a transaction id (in any database), readAll
 *   returns nothing positioned after it: it lags, never skips. Keep transactions short (and set
 *   `idle_in_transaction_session_timeout` on the server).
 *
 * Errors: `WrongExpectedVersionError`, `EventIdConflictError`, `EventStoreUnavailableError` (from the
 * executor, or after {@link close}), `TypeError`/`RangeError` for malformed arguments, and `Error`
 * when `options.streamId` already names another stream.
 */
export class SqlEventStore implements EventStore {
  #closing: Promise<void> | undefined;
  readonly #appendListeners = new Set<() => void>();
  #watchingOthers = false;
  readonly #newStreams: GroupCommit<NewStreamAppend, Settled>;

  constructor(
    private readonly sql: SqlExecutor,
    private readonly release: () => Promise<void>,
    options: SqlEventStoreOptions = {},
  ) {
    this.#newStreams = new GroupCommit((batch) => this.createStreams(batch), {
      ...DEFAULT_GROUP_COMMIT,
      ...options.groupCommit,
    });
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
      const settled = await this.#newStreams.submit(streamName, { streamName, events, encoded, streamId });
      if (!settled.ok) throw settled.error;
      return settled.result;
    }
    const result = await this.appendAlone(streamName, expectedRevision, encoded, streamId);
    if (!result.deduplicated) this.appendedHere();
    return result;
  }

  async appendBatch(requests: readonly AppendRequest[]): Promise<BatchAppendOutcome[]> {
    if (requests.length === 0) return [];
    if (requests.every((r) => r.expectedRevision === ANY)) {
      const outcomes = await this.appendAnyTogether(requests);
      if (outcomes) return outcomes;
    }
    const payload = requests.map((request) => ({
      stream: request.streamName,
      expected: encodeExpectedRevision(request.expectedRevision),
      events: encodeEvents(request.streamName, request.events),
    }));
    const { rows } = await this.withIdRaceRetry(requests[0]!.streamName, () =>
      this.sql.query<AppendRow & { request_index: number }>(
        `select request_index, ${APPEND_COLUMNS} from ledger_append_batch($1::text::jsonb)`,
        [JSON.stringify(payload)],
      ),
    );
    const outcomes = new Array<BatchAppendOutcome>(requests.length);
    for (const row of rows) {
      const index = Number(row.request_index);
      const request = requests[index]!;
      outcomes[index] = toAppendOutcome(request.streamName, request.expectedRevision, row);
    }
    if (outcomes.some((o) => o.ok && !o.deduplicated)) this.appendedHere();
    return outcomes;
  }

  async read(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0n;
    if (typeof from !== 'bigint' || from < 0n) {
      throw new RangeError(`fromRevision must be a bigint >= 0, got ${String(from)}`);
    }
    const { rows } = await this.query<{ event: RecordedEventJson }>(
      'select event from ledger_read_stream($1, $2::text::bigint)',
      [streamName, from.toString()],
    );
    return rows.map((row) => toRecordedEvent(row.event));
  }

  async readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    if (typeof after !== 'bigint') throw new RangeError('readAll: after must be a bigint (-1n = start)');
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
      throw new RangeError(`readAll: limit must be an integer in 0..${MAX_LIMIT}, got ${limit}`);
    }
    if (limit === 0) return [];
    const { rows } = await this.query<{ event: RecordedEventJson }>(
      'select event from ledger_read_all($1::text::bigint, $2::integer)',
      [after.toString(), limit],
    );
    return rows.map((row) => toRecordedEvent(row.event));
  }

  async truncateBefore(streamName: string, revision: bigint): Promise<bigint> {
    if (typeof revision !== 'bigint' || revision < 0n) {
      throw new RangeError(`truncateBefore: revision must be a bigint >= 0, got ${String(revision)}`);
    }
    const { rows } = await this.query<{ deleted: string | number | bigint }>(
      'select ledger_truncate_before($1, $2::text::bigint)::text as deleted',
      [streamName, revision.toString()],
    );
    return BigInt(rows[0]?.deleted ?? 0);
  }

  async findStreamName(streamId: string): Promise<string | null> {
    if (!isUuid(streamId)) return null;
    const { rows } = await this.query<{ stream_name: string }>(
      'select stream_name from ledger_streams where stream_id = $1::text::uuid',
      [streamId],
    );
    return rows[0]?.stream_name ?? null;
  }

  /**
   * Calls `listener` after every append of this instance that wrote events, and — where the
   * subclass implements {@link watchOtherWriters} (PostgreSQL: LISTEN/NOTIFY, migration 4) — after
   * appends of other processes. A wake-up hint only (see the port).
   */
  subscribeToAppends(listener: () => void): () => void {
    this.#appendListeners.add(listener);
    if (!this.#watchingOthers && !this.#closing) {
      this.#watchingOthers = true;
      this.watchOtherWriters(() => this.announceAppended());
    }
    return () => void this.#appendListeners.delete(listener);
  }

  close(): Promise<void> {
    this.#appendListeners.clear();
    this.#closing ??= this.release();
    return this.#closing;
  }

  /**
   * Hook for adapters whose database is shared by several processes: start calling `announce`
   * when another process appends. Called once, on the first {@link subscribeToAppends}. Default:
   * nothing (a single-process database such as PGlite only sees its own appends).
   */
  protected watchOtherWriters(_announce: () => void): void {}

  /**
   * Hook for adapters whose database is shared by several processes: tell the others that this
   * process committed an append (a wake-up hint, sent after the commit). Default: nothing.
   */
  protected signalOtherProcesses(): void {}

  /** After a committed append of this process: wake local listeners, then other processes. */
  private appendedHere(): void {
    this.announceAppended();
    this.signalOtherProcesses();
  }

  /** Wakes every append listener (their errors are ignored: a hint must not fail an append). */
  private announceAppended(): void {
    for (const listener of this.#appendListeners) {
      try {
        listener();
      } catch {
        /* a listener's bug must not fail the append */
      }
    }
  }

  /** One append through `ledger_append` (the general path; it also settles idempotent retries). */
  private async appendAlone(
    streamName: string,
    expectedRevision: ExpectedRevision,
    encoded: unknown[],
    streamId: string | null,
  ): Promise<AppendResult> {
    const params = [streamName, encodeExpectedRevision(expectedRevision), JSON.stringify(encoded), streamId];
    const { rows } = await this.withIdRaceRetry(streamName, () =>
      this.sql.queryPrepared<AppendRow>(
        'ledger_append',
        `select ${APPEND_COLUMNS} from ledger_append($1, $2, $3::text::jsonb, $4::text::uuid)`,
        params,
      ),
    );
    const outcome = toAppendOutcome(streamName, expectedRevision, single(rows));
    if (!outcome.ok) throw outcome.error;
    const { ok: _ok, ...result } = outcome;
    return result;
  }

  /**
   * Flush of the `no_stream` group commit: one {@link CREATE_STREAMS_STATEMENT} for the batch. A
   * stream that exists is refused with its events — unless the statement could not see it yet, or
   * it already holds one of the append's ids (an idempotent retry): those, and the whole batch when
   * the statement fails for another reason than an unreachable database, go through
   * {@link appendAlone}.
   */
  private async createStreams(batch: readonly NewStreamAppend[]): Promise<Settled[]> {
    let rows: CreateStreamsRow[];
    try {
      ({ rows } = await this.sql.queryPrepared<CreateStreamsRow>(
        'ledger_create_streams',
        CREATE_STREAMS_STATEMENT,
        [
          JSON.stringify(
            batch.map((a) => ({ stream: a.streamName, streamId: a.streamId, events: a.encoded })),
          ),
        ],
      ));
    } catch (error) {
      if (error instanceof EventStoreUnavailableError) throw error;
      return this.settleAlone(batch);
    }
    const settled = await Promise.all(
      batch.map(async (append, i): Promise<Settled> => {
        const row = rows[i];
        if (row?.ok && row.first_global !== null && row.last_global !== null) {
          return {
            ok: true,
            result: {
              nextExpectedRevision: BigInt(append.events.length - 1),
              firstGlobalPosition: BigInt(row.first_global),
              lastGlobalPosition: BigInt(row.last_global),
              deduplicated: false,
            },
          };
        }
        const current = (row?.current_events ?? []) as RecordedEventJson[];
        const ids = new Set(append.events.map((e) => e.id.toLowerCase()));
        if (row && row.actual !== null && !current.some((e) => ids.has(e.id))) {
          const error = new WrongExpectedVersionError(
            append.streamName,
            NO_STREAM,
            BigInt(row.actual),
            current.map(toRecordedEvent),
          );
          return { ok: false, error };
        }
        return (await this.settleAlone([append]))[0]!;
      }),
    );
    if (settled.some((s) => s.ok && !s.result.deduplicated)) this.appendedHere();
    return settled;
  }

  /** Each append alone through {@link appendAlone}, each with its own outcome. */
  private settleAlone(batch: readonly NewStreamAppend[]): Promise<Settled[]> {
    return Promise.all(
      batch.map((a) =>
        this.appendAlone(a.streamName, NO_STREAM, a.encoded, a.streamId).then(
          (result): Settled => ({ ok: true, result }),
          (error: unknown): Settled => ({ ok: false, error }),
        ),
      ),
    );
  }

  /**
   * An `appendBatch` of `any` appends as one {@link APPEND_ANY_STATEMENT}: appends to the same
   * stream are merged (in request order) into one, then split back. Returns null when the
   * statement failed for another reason than an unreachable database (the caller then runs
   * `ledger_append_batch`, which settles idempotent retries and reports conflicts).
   */
  private async appendAnyTogether(requests: readonly AppendRequest[]): Promise<BatchAppendOutcome[] | null> {
    const merged = new Map<
      string,
      { events: unknown[]; parts: { index: number; offset: number; count: number }[] }
    >();
    requests.forEach((request, index) => {
      const encoded = encodeEvents(request.streamName, request.events);
      let entry = merged.get(request.streamName);
      if (!entry) merged.set(request.streamName, (entry = { events: [], parts: [] }));
      entry.parts.push({ index, offset: entry.events.length, count: encoded.length });
      entry.events.push(...encoded);
    });
    const streams = [...merged];
    let rows: AppendAnyRow[];
    try {
      this.assertOpen();
      ({ rows } = await this.sql.queryPrepared<AppendAnyRow>('ledger_append_any', APPEND_ANY_STATEMENT, [
        JSON.stringify(streams.map(([stream, entry]) => ({ stream, events: entry.events }))),
      ]));
    } catch (error) {
      if (error instanceof EventStoreUnavailableError) throw error;
      return null;
    }
    if (rows.length !== streams.length) return null;
    const outcomes = new Array<BatchAppendOutcome>(requests.length);
    streams.forEach(([, entry], i) => {
      const row = rows[i]!;
      const firstRevision = BigInt(row.next_revision) - BigInt(entry.events.length) + 1n;
      const firstGlobal = BigInt(row.first_global);
      for (const part of entry.parts) {
        outcomes[part.index] = {
          ok: true,
          nextExpectedRevision: firstRevision + BigInt(part.offset + part.count - 1),
          firstGlobalPosition: firstGlobal + BigInt(part.offset),
          lastGlobalPosition: firstGlobal + BigInt(part.offset + part.count - 1),
          deduplicated: false,
        };
      }
    });
    this.appendedHere();
    return outcomes;
  }

  private query<T>(sql: string, params: unknown[]) {
    this.assertOpen();
    return this.sql.query<T>(sql, params);
  }

  private async withIdRaceRetry<T>(streamName: string, call: () => Promise<T>): Promise<T> {
    this.assertOpen();
    try {
      return await call();
    } catch (error) {
      if (!isUniqueViolation(error, EVENT_ID_CONSTRAINT)) throw toStoreError(streamName, error);
    }
    try {
      return await call();
    } catch (error) {
      throw toStoreError(streamName, error);
    }
  }

  private assertOpen(): void {
    if (this.#closing) throw new EventStoreUnavailableError('The event store is closed');
  }
}

function toStoreError(streamName: string, error: unknown): unknown {
  if (sqlStateOf(error) === SqlState.eventIdConflict || isUniqueViolation(error, EVENT_ID_CONSTRAINT)) {
    return new EventIdConflictError(streamName, (error as Error).message, error);
  }
  if (isUniqueViolation(error, STREAM_ID_CONSTRAINT)) {
    return new Error(`Append to ${streamName}: its stream id already names another stream`, {
      cause: error,
    });
  }
  return error;
}

function encodeStreamId(streamId: string | undefined): string | null {
  if (streamId === undefined) return null;
  if (!isUuid(streamId)) throw new TypeError(`streamId must be a UUID, got ${String(streamId)}`);
  return streamId;
}

function single<T>(rows: T[]): T {
  if (rows.length !== 1) throw new Error(`Expected one row from the append function, got ${rows.length}`);
  return rows[0]!;
}
