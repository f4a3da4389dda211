import type { RecordedEvent } from '../../event-store/event-store.port.js';
import type { SqlExecutor } from '../../event-store/sql-executor.js';

/** Physical table of each logical table of one read model generation (`logical → physical`). */
export type TableNames = Readonly<Record<string, string>>;

/**
 * One entry of a live change feed (SSE): what an event changed in a read model. `position` is the
 * event's global position, so a feed has at most one change per event and a client resumes with
 * `Last-Event-ID` = the last position it saw.
 */
export interface FeedChange {
  readonly feed: string;
  readonly position: bigint;
  readonly tenant: string;
  /** SSE event name, e.g. `operation`, `review`, `metrics`, `conflict`. */
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/**
 * A read model the projector maintains: its tables (one set per generation, so it can be rebuilt
 * into shadow tables), the feeds it writes changes to, and how a batch of events changes it.
 *
 * Contract of {@link apply}: called inside the transaction that also advances the checkpoint,
 * with events in global order that are all after the checkpoint. It must be deterministic (a
 * function of the events only — never `now()`), so a rebuild from zero equals the incremental
 * result, and idempotent per row (every row keeps the global position of the last event applied
 * to it and ignores events at or before it), so a re-applied event changes nothing.
 */
export interface ReadModel {
  /** Stable name, `[a-z_]+`; also the checkpoint's and the lock's name. */
  readonly name: string;
  /** Logical table names; physical `ledger_rm_<table>_g<generation>`, view `ledger_rm_<table>`. */
  readonly tables: readonly string[];
  /** Feeds (change logs) this read model writes. */
  readonly feeds: readonly string[];
  /** DDL (a script) creating the physical tables and indexes named in `names`. */
  createTables(names: TableNames): string;
  /**
   * Optional work outside the transaction before {@link apply} (e.g. reading the event store);
   * whatever it returns is handed to {@link apply}. Must be deterministic too.
   */
  prepare?(events: readonly RecordedEvent[]): Promise<unknown>;
  /**
   * Applies `events` to the tables in `names` within `tx`.
   * @returns the feed changes to record (at most one per feed and event).
   */
  apply(
    tx: SqlExecutor,
    events: readonly RecordedEvent[],
    names: TableNames,
    prepared: unknown,
  ): Promise<FeedChange[]>;
}

/** Physical table names of `model` for `generation`. */
export function tableNames(model: ReadModel, generation: number): TableNames {
  return Object.fromEntries(model.tables.map((t) => [t, `ledger_rm_${t}_g${generation}`]));
}

/** The view through which queries read a logical table (always the current generation). */
export function viewName(table: string): string {
  return `ledger_rm_${table}`;
}
