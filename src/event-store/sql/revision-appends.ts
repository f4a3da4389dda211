import { GroupCommit, type GroupCommitOptions } from '../group-commit.js';
import type { SqlExecutor } from '../sql-executor.js';
import { type SettledAppend, settleEachAlone } from './append-alone.js';
import { appendedEvents } from './appended-events.js';
import { type AppendRow, toAppendOutcome } from './append-row.js';
import type { KnownStreams } from './known-streams.js';
import { isSettledAppendByAppend, SqlState, sqlStateOf } from './sql-error.js';
import { APPEND_BATCH } from './statements/append-batch.js';
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
 * The follow-up path of the SQL stores: exact-revision appends group-committed, keyed by stream,
 * as one `ledger_append_batch` call, each answered as `ledger_append` alone would; a failed batch
 * is replayed append by append.
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
    let rows: (AppendRow | undefined)[];
    try {
      rows = batch.length === 1 ? [await this.appendOne(batch[0]!)] : await this.appendMany(batch);
    } catch (error) {
      if (!isSettledAppendByAppend(error) && sqlStateOf(error) !== SqlState.eventIdConflict) {
        throw toStoreError(batch[0]!.streamName, error);
      }
      // One of them caused it: each again on its own, so only that one loses its held copy.
      if (batch.length > 1) return (await Promise.all(batch.map((a) => this.flush([a])))).flat();
      this.known.forget(batch[0]!.streamName);
      return settleEachAlone(this.sql, [{ ...batch[0]!, expectedRevision: batch[0]!.expected }]);
    }
    let wrote = false;
    const settled = batch.map((append, i): SettledAppend => {
      const row = rows[i];
      if (!row) return { ok: false, error: new Error(`no row for the append to ${append.streamName}`) };
      const outcome = toAppendOutcome(append.streamName, append.expected, row);
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
    });
    if (wrote) this.written();
    return settled;
  }

  private async appendOne(append: RevisionAppend): Promise<AppendRow | undefined> {
    const { rows } = await this.sql.queryPrepared<AppendRow>(APPEND.name, APPEND.text, [
      append.streamName,
      append.expected.toString(),
      JSON.stringify(append.encoded),
      append.streamId,
    ]);
    return rows[0];
  }

  private async appendMany(batch: readonly RevisionAppend[]): Promise<(AppendRow | undefined)[]> {
    const payload = batch.map((a) => ({
      stream: a.streamName,
      expected: a.expected.toString(),
      events: a.encoded,
      ...(a.streamId ? { streamId: a.streamId } : {}),
    }));
    const { rows } = await this.sql.queryPrepared<AppendRow & { request_index: number }>(
      APPEND_BATCH.name,
      APPEND_BATCH.text,
      [JSON.stringify(payload)],
    );
    const byRequest = new Array<AppendRow | undefined>(batch.length);
    for (const row of rows) byRequest[Number(row.request_index)] = row;
    return byRequest;
  }
}
