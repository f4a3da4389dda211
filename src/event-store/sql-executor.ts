/**
 * The SQL seam shared by the PostgreSQL (pg) and PGlite adapters, and by projections that keep
 * their read models in the same database.
 */

/** Rows of one statement, as the driver parsed them (jsonb → objects; int8 differs, cast it). */
export interface SqlResult<T> {
  readonly rows: T[];
}

/**
 * Runs one parameterised statement (`$1`, `$2` … placeholders). A pg `Pool`, a pg `Client` and a
 * `PGlite` instance satisfy it as they are.
 */
export interface SqlQueryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<SqlResult<T>>;
}

/** Options of {@link SqlExecutor.transaction}. */
export interface TransactionOptions {
  /**
   * Each statement of the transaction may run this long, ms, instead of the executor's own
   * statement timeout (batch work such as a reconciliation's set-based phases; on PostgreSQL
   * `SET LOCAL statement_timeout` and the client's read timeout). Executors without a statement
   * timeout (PGlite) ignore it; so does a nested transaction (a savepoint keeps the outer one's).
   */
  readonly statementTimeoutMs?: number;
}

/**
 * A {@link SqlQueryable} that can also run scripts and transactions. Implementations map "cannot
 * reach the database" failures (refused connection, terminated backend `57P01`, timeouts, closed
 * client) to `EventStoreUnavailableError`; every other database error is passed through unchanged
 * (it carries the SQLSTATE in `code`).
 */
export interface SqlExecutor extends SqlQueryable {
  /**
   * Runs a statement that the executor may prepare once per connection under `name` and reuse
   * (a pg named prepared statement: parsed and planned once, later calls only bind and execute).
   * `name` must always stand for the same `sql`. Executors that cannot prepare run it as
   * {@link query}. Errors as for {@link query}.
   */
  queryPrepared<T = Record<string, unknown>>(
    name: string,
    sql: string,
    params: unknown[],
  ): Promise<SqlResult<T>>;

  /** Runs a multi-statement SQL script without parameters (e.g. a migration). */
  exec(script: string): Promise<void>;

  /**
   * Runs `fn` in one transaction on one connection: committed when `fn` resolves, rolled back when
   * it throws (the error is rethrown). Inside, `tx.transaction` opens a savepoint. Use it to write
   * read-model rows and their checkpoint atomically. On PGlite, every other query waits until the
   * transaction ends (one connection).
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;

  /**
   * Optional: why the database cannot take writes now — e.g. `storage: disk full, 3 MiB free,
   * need 24` (embedded store below its reserve) or a disk-full error PostgreSQL reported in the
   * last seconds — or undefined when nothing is known to be wrong. `/health/ready` reports it.
   */
  storageProblem?(): string | undefined;

  /**
   * Optional: the free space of the database's volume, measured now (one `statfs`), with the
   * thresholds that apply to it — only where the ledger owns the volume (the embedded store).
   * Undefined when unknown. Batch work checks it between chunks (docs/reconciliation.md); readiness
   * and `/metrics` report it.
   */
  freeSpace?(): Promise<FreeSpace | undefined>;
}

/** Free space of the embedded store's volume and the thresholds that apply to it, bytes. */
export interface FreeSpace {
  /** Free to this process now. */
  readonly freeBytes: number;
  /** Below this, writes are refused (LEDGER_DISK_RESERVE_MIB). */
  readonly reserveBytes: number;
  /** What reopening the data directory needs (crash recovery plus the reserve): a restart below it fails. */
  readonly restartBytes: number;
}
