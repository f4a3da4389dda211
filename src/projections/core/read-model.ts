import type { RecordedEvent } from '../../event-store/event-store.port.js';
import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';

/** Physical table of each logical table of one read model generation (`logical → physical`). */
export type TableNames = Readonly<Record<string, string>>;

/** That a batch changed what a feed shows for `tenant` (content is read by {@link ReadModel.readFeed}). */
export interface FeedChange {
  readonly feed: string;
  readonly position: bigint;
  readonly tenant: string;
}

/**
 * One entry of a live change feed (SSE): the current state of one changed row; `position` is
 * the global position of its last event, the SSE id (docs/api.md "Subscriptions").
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
 * A read model the projector maintains (tables per generation, so it can be rebuilt into shadow
 * tables). {@link apply} runs in the checkpoint's transaction on events after the checkpoint, in
 * global order; it must be deterministic (never `now()`), so a rebuild equals the incremental
 * result, and idempotent per row (each row keeps the position of its last event).
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
  /** The changes of `feed` for `tenant` after `after`, oldest first, at most `limit`, one per row. */
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
