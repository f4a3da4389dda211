import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import type { SqlExecutor, SqlResult } from '../sql-executor.js';
import { runInSavepoint } from '../sql/savepoint.js';
import { orUnavailable } from './unavailable-error.js';

/** What a pg `Pool` and a checked-out `PoolClient` share: running one query. */
interface PgQueryable {
  query(config: QueryConfig): Promise<QueryResult>;
}

/**
 * Statements on a pg pool or client; failures as {@link orUnavailable}. A query without values
 * runs over the simple protocol, so {@link exec} takes multi-statement scripts.
 */
abstract class PgStatements {
  protected constructor(private readonly target: PgQueryable) {}

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    const result = await orUnavailable(() => this.target.query({ text: sql, values: params }));
    return { rows: result.rows as T[] };
  }

  async queryPrepared<T>(name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    const result = await orUnavailable(() => this.target.query({ name, text: sql, values: params }));
    return { rows: result.rows as T[] };
  }

  async exec(script: string): Promise<void> {
    await this.query(script);
  }
}

/**
 * {@link SqlExecutor} over a pg `Pool`: each query borrows a connection; `transaction` holds one
 * connection for BEGIN … COMMIT. Connection failures and timeouts become
 * `EventStoreUnavailableError`; a connection that failed is destroyed, not returned to the pool.
 */
export class PgPoolExecutor extends PgStatements implements SqlExecutor {
  constructor(
    /** The underlying pool, for code that needs pg itself (LISTEN, COPY). */
    readonly pool: Pool,
  ) {
    super(pool);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await orUnavailable(() => this.pool.connect());
    const tx = new PgClientExecutor(client);
    let broken: unknown;
    // A checked-out client has no pool error listener: a connection dropped between statements
    // (PostgreSQL restarting, 57P01) would emit an unhandled 'error' and crash the process. Keep
    // it; the next statement fails and the client is released as broken.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await tx.exec('begin');
      const result = await fn(tx);
      await tx.exec('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: unknown) => (broken = rollbackError));
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(broken instanceof Error ? broken : undefined);
    }
  }
}

/** {@link SqlExecutor} bound to one pg client inside an open transaction; nesting uses savepoints. */
class PgClientExecutor extends PgStatements implements SqlExecutor {
  constructor(client: PoolClient) {
    super(client);
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return runInSavepoint(this, fn);
  }
}
