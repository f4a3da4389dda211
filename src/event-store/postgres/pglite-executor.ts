import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { SqlExecutor, SqlResult } from '../sql-executor.js';
import { runInSavepoint } from '../sql/savepoint.js';
import { orUnavailable } from './unavailable-error.js';

/** What a PGlite instance and one of its open transactions share. */
type PgliteQueryable = Pick<Transaction, 'query' | 'exec'>;

/** Statements on a PGlite instance or transaction; failures as {@link orUnavailable}. */
abstract class PgliteStatements {
  protected constructor(private readonly target: PgliteQueryable) {}

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    return { rows: (await orUnavailable(() => this.target.query<T>(sql, params))).rows };
  }

  /** PGlite has one connection and no named statements here: runs `sql` as {@link query}. */
  queryPrepared<T>(_name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    return this.query<T>(sql, params);
  }

  async exec(script: string): Promise<void> {
    await orUnavailable(() => this.target.exec(script));
  }
}

/**
 * {@link SqlExecutor} over one PGlite instance (a single connection: statements and transactions
 * are serialised; while `transaction` runs, other queries wait). A closed instance gives
 * `EventStoreUnavailableError`. It has no statement timeout, so transaction options change nothing.
 */
export class PgliteExecutor extends PgliteStatements implements SqlExecutor {
  constructor(
    /** The underlying PGlite instance. */
    readonly db: PGlite,
  ) {
    super(db);
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return orUnavailable(() => this.db.transaction((tx) => fn(new PgliteTransactionExecutor(tx))));
  }
}

/** {@link SqlExecutor} inside an open PGlite transaction; nesting uses savepoints. */
class PgliteTransactionExecutor extends PgliteStatements implements SqlExecutor {
  constructor(tx: Transaction) {
    super(tx);
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return runInSavepoint(this, fn);
  }
}
