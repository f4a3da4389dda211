import type { RecordedEvent } from '../../event-store/event-store.port.js';
import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';

/** Physical table of each logical table of one read model generation (`logical → physical`). */
export type TableNames = Readonly<Record<string, string>>;

/**
 * That a batch changed what a feed shows for `tenant`: the projector announces the read model
 * when any batch returns one. The feed's content is read from the read model's rows
 * ({@link ReadModel.readFeed}), not from a log of changes.
 */
export interface FeedChange {
  readonly feed: string;
  readonly position: bigint;
  readonly tenant: string;
}

/**
 * One entry of a live change feed (SSE) as a subscriber receives it: the current state of one
 * row of a read model that changed after the subscriber's position. `position` is the global
 * position of the last event that changed the row (the SSE id), so a client resumes with
 * `Last-Event-ID` = the last position it saw. Several changes of one row after that position
 * arrive as one entry with the latest state (docs/api.md "Subscriptions").
 */
export interface StoredChange {
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
  /** Feeds (live subscriptions, read by {@link readFeed}) this read model serves. */
  readonly feeds: readonly string[];
  /** DDL (a script) creating the physical tables and indexes named in `names`. */
  createTables(names: TableNames): string;
  /**
   * Optional idempotent DDL bringing tables created by an older version up to {@link createTables}
   * (`add column if not exists`, `create index if not exists` …); run at every install.
   */
  upgradeTables?(names: TableNames): string;
  /**
   * The changes of `feed` for `tenant` after position `after`, oldest first, at most `limit`:
   * the rows of the current tables changed after it, one entry per row (its latest state).
   */
  readFeed(
    sql: SqlQueryable,
    feed: string,
    tenant: string,
    after: bigint,
    limit: number,
  ): Promise<StoredChange[]>;
  /**
   * Optional work outside the transaction before {@link apply} (e.g. reading the event store);
   * whatever it returns is handed to {@link apply}. Must be deterministic too.
   */
  prepare?(events: readonly RecordedEvent[]): Promise<unknown>;
  /**
   * Applies `events` to the tables in `names` within `tx`.
   * @returns which feeds changed (at most one entry per feed and event; announced to subscribers).
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
