import { type EventToAppend, NO_STREAM, wrongExpectedVersion } from '../event-store.port.js';
import { GroupCommit, type GroupCommitOptions } from '../group-commit.js';
import type { SqlExecutor } from '../sql-executor.js';
import { type SettledAppend, settleEachAlone } from './append-alone.js';
import { appendedEvents } from './appended-events.js';
import type { KnownStream, KnownStreams } from './known-streams.js';
import { type RecordedEventJson, toRecordedEvent } from './recorded-event-json.js';
import { isSettledAppendByAppend } from './sql-error.js';
import { CREATE_STREAMS, type CreateStreamsRow } from './statements/create-streams.js';

export type { SettledAppend } from './append-alone.js';

/** A `no_stream` append: its events, their encoding for the functions, the stream's alias. */
export interface NewStreamAppend {
  readonly streamName: string;
  readonly events: readonly EventToAppend[];
  readonly encoded: unknown[];
  readonly streamId: string | null;
}

/**
 * The claim path of the SQL stores: `no_stream` appends group-committed through
 * `ledger_create_streams`. Each append gets exactly the answer `ledger_append` would give it
 * alone: what the set-based call cannot settle (a stream it could not see yet, an idempotent
 * retry, a batch failed by a unique violation or deadlock) is replayed one by one. Streams created
 * or refused are held ({@link KnownStreams}), so a repeated refusal does not resend events.
 */
export class NewStreamAppends {
  readonly #group: GroupCommit<NewStreamAppend, SettledAppend>;
  readonly #known: KnownStreams;

  constructor(
    private readonly sql: SqlExecutor,
    /** The streams this process holds (shared with the store's other write paths). */
    known: KnownStreams,
    /** Called after a batch that stored events (wake-up hints). */
    private readonly written: () => void,
    groupCommit: GroupCommitOptions,
  ) {
    this.#group = new GroupCommit((batch) => this.createStreams(batch), groupCommit);
    this.#known = known;
  }

  /** Appends with expected revision `no_stream` in the next batch; settles with its own outcome. */
  submit(append: NewStreamAppend): Promise<SettledAppend> {
    return this.#group.submit(append.streamName, append);
  }

  /** Flush of the group commit: one `ledger_create_streams` call for the batch. */
  private async createStreams(batch: readonly NewStreamAppend[]): Promise<SettledAppend[]> {
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
      ({ rows } = await this.sql.queryPrepared<CreateStreamsRow>(CREATE_STREAMS.name, CREATE_STREAMS.text, [
        JSON.stringify(payload),
      ]));
    } catch (error) {
      if (!isSettledAppendByAppend(error)) throw error;
      return this.settleAlone(batch);
    }
    const settled = await Promise.all(
      batch.map(async (append, i): Promise<SettledAppend> => {
        const row = rows[i];
        if (row?.ok && row.first_global !== null && row.last_global !== null) {
          this.#known.remember(
            append.streamName,
            BigInt(append.events.length - 1),
            0n,
            appendedEvents(append.encoded, {
              streamName: append.streamName,
              firstStreamPosition: 0n,
              firstGlobalPosition: BigInt(row.first_global),
              recordedAt: row.recorded_at,
            }),
          );
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
    if (settled.some((s) => s.ok && !s.result.deduplicated)) this.written();
    return settled;
  }

  /** The stream a refused append saw; undefined when the call could not see it yet. */
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

  /** Each append alone through `ledger_append`, each with its own outcome. */
  private settleAlone(batch: readonly NewStreamAppend[]): Promise<SettledAppend[]> {
    return settleEachAlone(
      this.sql,
      batch.map((a) => ({
        streamName: a.streamName,
        expectedRevision: NO_STREAM,
        encoded: a.encoded,
        streamId: a.streamId,
      })),
    );
  }
}
