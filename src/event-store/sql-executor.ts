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
   * Per-statement timeout in this transaction, ms, instead of the executor's (batch work). PGlite
   * and nested transactions (savepoints) ignore it.
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
   * Runs a statement the executor may prepare once per connection under `name` (a pg named
   * prepared statement); `name` must always stand for the same `sql`. Errors as for {@link query}.
   */
  queryPrepared<T = Record<string, unknown>>(
    name: string,
    sql: string,
    params: unknown[],
  ): Promise<SqlResult<T>>;

  /** Runs a multi-statement SQL script without parameters (e.g. a migration). */
  exec(script: string): Promise<void>;

  /**
   * Runs `fn` in one transaction on one connection: committed when `fn` resolves, rolled back (and
   * rethrown) when it throws; `tx.transaction` opens a savepoint. On PGlite every other query waits
   * (one connection).
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;

  /**
   * Optional: why the database cannot take writes now (e.g. `storage: disk full, 3 MiB free, need
   * 24`), or undefined. `/health/ready` reports it.
   */
  storageProblem?(): string | undefined;

  /**
   * Optional: free space of the database's volume now, with its thresholds — only where the ledger
   * owns the volume (the embedded store). Batch work checks it between chunks.
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
