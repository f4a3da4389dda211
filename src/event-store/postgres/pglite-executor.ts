import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SqlExecutor, SqlResult } from '../sql-executor.js';
import { runInSavepoint } from '../sql/savepoint.js';
import { toUnavailableError } from './unavailable-error.js';

/**
 * {@link SqlExecutor} over one PGlite instance (a single connection: statements and transactions
 * are serialised; while `transaction` runs, other queries wait). A closed instance gives
 * `EventStoreUnavailableError`.
 */
export class PgliteExecutor implements SqlExecutor {
  constructor(
    /** The underlying PGlite instance. */
    readonly db: PGlite,
  ) {}

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    try {
      return { rows: (await this.db.query<T>(sql, params)).rows };
    } catch (error) {
      throw toUnavailableError(error);
    }
  }

  /** PGlite has one connection and no named statements here: runs `sql` as {@link query}. */
  queryPrepared<T>(_name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    return this.query<T>(sql, params);
  }

  async exec(script: string): Promise<void> {
    try {
      await this.db.exec(script);
    } catch (error) {
      throw toUnavailableError(error);
    }
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction((tx) => fn(new PgliteTransactionExecutor(tx)));
    } catch (error) {
      throw toUnavailableError(error);
    }
  }
}

/** {@link SqlExecutor} inside an open PGlite transaction; nesting uses savepoints. */
class PgliteTransactionExecutor implements SqlExecutor {
  constructor(private readonly tx: Transaction) {}

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    try {
      return { rows: (await this.tx.query<T>(sql, params)).rows };
    } catch (error) {
      throw toUnavailableError(error);
    }
  }

  /** PGlite has one connection and no named statements here: runs `sql` as {@link query}. */
  queryPrepared<T>(_name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    return this.query<T>(sql, params);
  }

  async exec(script: string): Promise<void> {
    try {
      await this.tx.exec(script);
    } catch (error) {
      throw toUnavailableError(error);
    }
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return runInSavepoint(this, fn);
  }
}
