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
  wrongExpectedVersion,
} from './event-store.port.js';
import type { SqlExecutor } from './sql-executor.js';
import { encodeEvents, encodeExpectedRevision, isUuid } from './sql/append-encoding.js';
import { APPEND_COLUMNS, type AppendRow, toAppendOutcome } from './sql/append-row.js';
import { KnownStreams, type KnownStream } from './sql/known-streams.js';
import { type RecordedEventJson, toRecordedEvent } from './sql/recorded-event-json.js';
import {
  APPEND_ANY_STATEMENT,
  type AppendAnyRow,
  CREATE_STREAMS_STATEMENT,
  type CreateStreamsRow,
} from './sql/set-append-statements.js';
import {
  EVENT_ID_CONSTRAINT,
  isSettledAppendByAppend,
  isUniqueViolation,
  STREAM_ID_CONSTRAINT,
  SqlState,
  sqlStateOf,
} from './sql/sql-error.js';

const MAX_LIMIT = 2 ** 31 - 1;

/** Group commit of `no_stream` appends when the adapter sets none: one batch at a time, 64 per batch. */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { maxInFlight: 1, maxBatchSize: 64 };

/** Streams held with their events for refused `no_stream` appends (duplicate claims) by default. */
export const DEFAULT_KNOWN_STREAMS = 4096;
/** Approximate bytes of events held for refused `no_stream` appends by default (64 MiB). */
export const DEFAULT_KNOWN_STREAM_BYTES = 64 * 1024 * 1024;

/** Options of {@link SqlEventStore}. */
export interface SqlEventStoreOptions {
  /** Group commit of `no_stream` appends (see {@link SqlEventStore}); default {@link DEFAULT_GROUP_COMMIT}. */
  readonly groupCommit?: GroupCommitOptions;
  /** Streams held for repeated refusals (see {@link KnownStreams}); default {@link DEFAULT_KNOWN_STREAMS}. */
  readonly knownStreams?: number;
  /** Their approximate size bound, bytes; default {@link DEFAULT_KNOWN_STREAM_BYTES}. */
  readonly knownStreamBytes?: number;
}

/** A `no_stream` append waiting for its group commit. */
interface NewStreamAppend {
  readonly streamName: string;
  readonly events: readonly EventToAppend[];
  readonly encoded: unknown[];
  readonly streamId: string | null;
}

/** `any` appends to one stream under one condition, merged in request order (see appendAnyTogether). */
interface MergedAnyAppend {
  readonly stream: string;
  readonly onlyIf: AppendRequest['onlyIf'];
  readonly events: unknown[];
  /** Where each request's events are in `events`. */
  readonly parts: { readonly index: number; readonly offset: number; readonly count: number }[];
}

/**
 * Splits `any` appends into statements' worth: requests for the same stream and the same
 * condition merge; a stream named again under another condition starts or joins a later round,
 * so each round names a stream once.
 */
function anyAppendRounds(requests: readonly AppendRequest[]): MergedAnyAppend[][] {
  const rounds: Map<string, MergedAnyAppend>[] = [];
  requests.forEach((request, index) => {
    const encoded = encodeEvents(request.streamName, request.events);
    const condition = request.onlyIf ? `${request.onlyIf.streamName}@${request.onlyIf.revision}` : '';
    let round = rounds.find((r) => {
      const there = r.get(request.streamName);
      return there === undefined || conditionKey(there) === condition;
    });
    if (!round) rounds.push((round = new Map()));
    let merged = round.get(request.streamName);
    if (!merged) {
      merged = { stream: request.streamName, onlyIf: request.onlyIf, events: [], parts: [] };
      round.set(request.streamName, merged);
    }
    merged.parts.push({ index, offset: merged.events.length, count: encoded.length });
    merged.events.push(...encoded);
  });
  return rounds.map((r) => [...r.values()]);
}

function conditionKey(merged: MergedAnyAppend): string {
  return merged.onlyIf ? `${merged.onlyIf.streamName}@${merged.onlyIf.revision}` : '';
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
 *   per append and the same as `ledger_append`'s; when a set-based statement fails with a unique
 *   violation or a deadlock (a reused event id, a race it cannot settle), each of its appends is
 *   replayed alone through `ledger_append`, so every caller gets its own exact answer. A refused
 *   claim's stream is held in memory ({@link KnownStreams}), so a repeated refusal of an unchanged
 *   stream does not send its events again.
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
  readonly #known: KnownStreams;

  constructor(
    private readonly sql: SqlExecutor,
    private readonly release: () => Promise<void>,
    options: SqlEventStoreOptions = {},
  ) {
    this.#newStreams = new GroupCommit((batch) => this.createStreams(batch), {
      ...DEFAULT_GROUP_COMMIT,
      ...options.groupCommit,
    });
    this.#known = new KnownStreams(
      options.knownStreams ?? DEFAULT_KNOWN_STREAMS,
      options.knownStreamBytes ?? DEFAULT_KNOWN_STREAM_BYTES,
    );
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
    const allAny = requests.every((r) => r.expectedRevision === ANY);
    if (!allAny && requests.some((r) => r.onlyIf)) {
      throw new TypeError('appendBatch: onlyIf is supported on appends with expected revision any only');
    }
    if (allAny) {
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
    this.#known.forget(streamName);
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

  /**
   * The stream as this process last saw it whole: held after a refused `no_stream` append (see
   * {@link KnownStreams}). Possibly stale (the port's contract): verify with the write.
   */
  peek(streamName: string): readonly RecordedEvent[] | undefined {
    return this.#known.get(streamName)?.events;
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
    const known = batch.map((a) => this.#known.get(a.streamName));
    const payload = batch.map((a, i) => ({
      stream: a.streamName,
      streamId: a.streamId,
      events: a.encoded,
      known: known[i] && {
        revision: known[i].revision.toString(),
        first: known[i].first?.toString() ?? null,
      },
    }));
    let rows: CreateStreamsRow[];
    try {
      ({ rows } = await this.sql.queryPrepared<CreateStreamsRow>(
        'ledger_create_streams',
        CREATE_STREAMS_STATEMENT,
        [JSON.stringify(payload)],
      ));
    } catch (error) {
      if (!isSettledAppendByAppend(error)) throw error;
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
        const current = row && this.currentStream(append.streamName, row, known[i]);
        const ids = new Set(append.events.map((e) => e.id.toLowerCase()));
        if (current && !current.events.some((e) => ids.has(e.id))) {
          const error = wrongExpectedVersion(append.streamName, NO_STREAM, current.revision, current.events);
          return { ok: false, error };
        }
        return (await this.settleAlone([append]))[0]!;
      }),
    );
    if (settled.some((s) => s.ok && !s.result.deduplicated)) this.appendedHere();
    return settled;
  }

  /**
   * The stream a refused `no_stream` append saw: the events the statement returned (now held for
   * the next refusal), or the held copy the statement confirmed; undefined when the statement could
   * not see the stream (created by a transaction that committed meanwhile).
   */
  private currentStream(
    streamName: string,
    row: CreateStreamsRow,
    known: KnownStream | undefined,
  ): KnownStream | undefined {
    if (row.actual === null) return undefined;
    const revision = BigInt(row.actual);
    const first = row.first === null ? null : BigInt(row.first);
    if (row.current_events !== null) {
      const events = (row.current_events as RecordedEventJson[]).map(toRecordedEvent);
      return this.#known.remember(streamName, revision, first, events);
    }
    if (known && known.revision === revision && known.first === first) return known;
    return undefined;
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
   * An `appendBatch` of `any` appends as {@link APPEND_ANY_STATEMENT}s: requests for the same
   * stream with the same `onlyIf` are merged (in request order) into one and split back; a stream
   * named again with another condition goes to a next statement. Without conditions, returns null
   * when a statement failed with a unique violation or deadlock (the caller then runs
   * `ledger_append_batch`, which settles idempotent retries and reports conflicts). With
   * conditions, which `ledger_append_batch` cannot check, the failed statement's requests are
   * retried one by one, and a request that fails alone raises its error.
   */
  private async appendAnyTogether(requests: readonly AppendRequest[]): Promise<BatchAppendOutcome[] | null> {
    const conditional = requests.some((r) => r.onlyIf);
    const outcomes = new Array<BatchAppendOutcome>(requests.length);
    for (const round of anyAppendRounds(requests)) {
      let written: boolean;
      try {
        written = await this.appendAnyRound(round, outcomes);
      } catch (error) {
        if (!isSettledAppendByAppend(error)) throw toStoreError(requests[0]!.streamName, error);
        if (!conditional) return null;
        written = false;
        for (const merged of round) {
          const alone = await this.appendAnyRound([merged], outcomes).catch((error: unknown) => {
            throw toStoreError(merged.stream, error);
          });
          written ||= alone;
        }
      }
      if (written) this.appendedHere();
    }
    return outcomes;
  }

  /** One {@link APPEND_ANY_STATEMENT} for `round`; fills `outcomes`; true when anything was written. */
  private async appendAnyRound(
    round: readonly MergedAnyAppend[],
    outcomes: BatchAppendOutcome[],
  ): Promise<boolean> {
    this.assertOpen();
    const { rows } = await this.sql.queryPrepared<AppendAnyRow>('ledger_append_any', APPEND_ANY_STATEMENT, [
      JSON.stringify(
        round.map((m) => ({
          stream: m.stream,
          events: m.events,
          onlyIf: m.onlyIf && { stream: m.onlyIf.streamName, revision: m.onlyIf.revision.toString() },
        })),
      ),
    ]);
    if (rows.length !== round.length) throw new Error(`Expected ${round.length} rows, got ${rows.length}`);
    let written = false;
    round.forEach((merged, i) => {
      const row = rows[i]!;
      if (row.next_revision === null || row.first_global === null) {
        const { streamName, revision } = merged.onlyIf!;
        const actual = row.condition_actual === null ? NO_STREAM : BigInt(row.condition_actual);
        for (const part of merged.parts) {
          outcomes[part.index] = { ok: false, error: wrongExpectedVersion(streamName, revision, actual) };
        }
        return;
      }
      written = true;
      const firstRevision = BigInt(row.next_revision) - BigInt(merged.events.length) + 1n;
      const firstGlobal = BigInt(row.first_global);
      for (const part of merged.parts) {
        outcomes[part.index] = {
          ok: true,
          nextExpectedRevision: firstRevision + BigInt(part.offset + part.count - 1),
          firstGlobalPosition: firstGlobal + BigInt(part.offset),
          lastGlobalPosition: firstGlobal + BigInt(part.offset + part.count - 1),
          deduplicated: false,
        };
      }
    });
    return written;
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
