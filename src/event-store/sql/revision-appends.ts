import { GroupCommit, type GroupCommitOptions } from '../group-commit.js';
import type { SqlExecutor } from '../sql-executor.js';
import { type SettledAppend, settleEachAlone } from './append-alone.js';
import { appendedEvents } from './appended-events.js';
import { type AppendRow, toAppendOutcome } from './append-row.js';
import type { KnownStreams } from './known-streams.js';
import { isSettledAppendByAppend, SqlState, sqlStateOf } from './sql-error.js';
import { APPEND_REVISIONS } from './statements/append-revisions.js';
import { APPEND } from './statements/append.js';
import { toStoreError } from './store-error.js';

/** An append expecting an exact revision: its events encoded for the functions (`encodeEvents`). */
export interface RevisionAppend {
  readonly streamName: string;
  readonly expected: bigint;
  readonly encoded: unknown[];
  /** The stream's UUID alias, or null (recorded only when an append creates a stream). */
  readonly streamId: string | null;
}

/**
 * The follow-up path of the SQL stores (a worker's step start, confirm, unknown; operator
 * actions): appends that expect an exact revision, group-committed ({@link GroupCommit}, keyed by
 * stream, so a batch never holds one stream twice). A lone append leaves at once as one
 * `ledger_append` call (for one append the cheapest statement); appends that arrive while earlier
 * ones are being written leave together as one set-based `ledger_append_revisions` call with
 * array parameters (sql/functions/ledger-append-revisions.ts) — one round trip and one commit for
 * the batch, each append checked and answered exactly as `ledger_append` alone would (a refused
 * expected revision is that append's answer only). What the set-based call leaves undecided (an
 * id already stored: a retry or a conflict; a stream changed meanwhile), and a batch that fails
 * with a unique violation or a deadlock, are replayed append by append through `ledger_append`
 * (`settleEachAlone`, sql/append-alone.ts), so every caller still gets its own exact answer.
 *
 * Held copies (`KnownStreams`): a stored append grows the copy held at its expected revision
 * (the append proves it was the whole stream); a refusal holds the stream it returns, so the
 * caller's next attempt — decided on those events — grows it in turn.
 */
export class RevisionAppends {
  readonly #group: GroupCommit<RevisionAppend, SettledAppend>;

  constructor(
    private readonly sql: SqlExecutor,
    private readonly known: KnownStreams,
    /** Called after a batch that stored events (wake-up hints). */
    private readonly written: () => void,
    options: GroupCommitOptions,
  ) {
    this.#group = new GroupCommit((batch) => this.flush(batch), options);
  }

  /** Appends in the next batch; settles with its own outcome. */
  submit(append: RevisionAppend): Promise<SettledAppend> {
    return this.#group.submit(append.streamName, append);
  }

  private async flush(batch: readonly RevisionAppend[]): Promise<SettledAppend[]> {
    let rows: (UndecidedAppendRow | undefined)[];
    try {
      rows = batch.length === 1 ? [await this.appendOne(batch[0]!)] : await this.appendSet(batch);
    } catch (error) {
      if (!isSettledAppendByAppend(error) && sqlStateOf(error) !== SqlState.eventIdConflict) {
        throw toStoreError(batch[0]!.streamName, error);
      }
      // One of them caused it: each again on its own, so only that one loses its held copy.
      if (batch.length > 1) return (await Promise.all(batch.map((a) => this.flush([a])))).flat();
      return this.settleAlone(batch);
    }
    let wrote = false;
    const settled = await Promise.all(
      batch.map(async (append, i): Promise<SettledAppend> => {
        const row = rows[i];
        if (!row) return { ok: false, error: new Error(`no row for the append to ${append.streamName}`) };
        // Undecided (a reused id, a stream changed meanwhile): ledger_append tells it apart.
        if (row.ok === null) return (await this.settleAlone([append]))[0]!;
        const outcome = toAppendOutcome(append.streamName, append.expected, { ...row, ok: row.ok });
        if (!outcome.ok) {
          const { currentEvents } = outcome.error;
          if (currentEvents && currentEvents.length > 0 && typeof outcome.error.actual === 'bigint') {
            this.known.remember(append.streamName, outcome.error.actual, currentEvents[0]!.streamPosition, [
              ...currentEvents,
            ]);
          }
          return { ok: false, error: outcome.error };
        }
        const { ok: _ok, ...result } = outcome;
        if (!result.deduplicated) {
          wrote = true;
          this.known.extend(
            append.streamName,
            append.expected,
            appendedEvents(append.encoded, {
              streamName: append.streamName,
              firstStreamPosition: append.expected + 1n,
              firstGlobalPosition: result.firstGlobalPosition,
              recordedAt: row.recorded_at,
            }),
          );
        }
        return { ok: true, result };
      }),
    );
    if (wrote) this.written();
    return settled;
  }

  /** Each through `ledger_append` (sql/append-alone.ts), without its held copy. */
  private async settleAlone(batch: readonly RevisionAppend[]): Promise<SettledAppend[]> {
    for (const append of batch) this.known.forget(append.streamName);
    const settled = await settleEachAlone(
      this.sql,
      batch.map((a) => ({ ...a, expectedRevision: a.expected })),
    );
    if (settled.some((s) => s.ok && !s.result.deduplicated)) this.written();
    return settled;
  }

  /** A lone append as one `ledger_append` call (cheaper than the set-based statement for one). */
  private async appendOne(append: RevisionAppend): Promise<AppendRow | undefined> {
    const { rows } = await this.sql.queryPrepared<AppendRow>(APPEND.name, APPEND.text, [
      append.streamName,
      append.expected.toString(),
      JSON.stringify(append.encoded),
      append.streamId,
    ]);
    return rows[0];
  }

  /** The batch as one `ledger_append_revisions` call, parameters as arrays; a row per append. */
  private async appendSet(batch: readonly RevisionAppend[]): Promise<(UndecidedAppendRow | undefined)[]> {
    const streams: string[] = [];
    const expected: string[] = [];
    const requestOf: number[] = [];
    const ids: string[] = [];
    const types: string[] = [];
    const data: string[] = [];
    const metadata: string[] = [];
    batch.forEach((append, i) => {
      streams.push(append.streamName);
      expected.push(append.expected.toString());
      for (const event of append.encoded as EncodedEvent[]) {
        requestOf.push(i);
        ids.push(event.id);
        types.push(event.type);
        data.push(JSON.stringify(event.data));
        metadata.push(JSON.stringify(event.metadata));
      }
    });
    const { rows } = await this.sql.queryPrepared<UndecidedAppendRow & { request_index: number }>(
      APPEND_REVISIONS.name,
      APPEND_REVISIONS.text,
      [streams, expected, requestOf, ids, types, data, metadata],
    );
    const byRequest = new Array<UndecidedAppendRow | undefined>(batch.length);
    for (const row of rows) byRequest[Number(row.request_index)] = row;
    return byRequest;
  }
}

/** An event as `encodeEvents` (sql/append-encoding.ts) encodes it. */
interface EncodedEvent {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: unknown;
}

/** A row of `ledger_append_revisions`: `ok` null = undecided, settled through `ledger_append`. */
type UndecidedAppendRow = Omit<AppendRow, 'ok'> & { readonly ok: boolean | null };
