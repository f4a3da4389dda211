import type { Pool, PoolClient } from 'pg';
import type { SqlExecutor, SqlResult } from '../sql-executor.js';
import { runInSavepoint } from '../sql/savepoint.js';
import { toUnavailableError } from './unavailable-error.js';

/**
 * {@link SqlExecutor} over a pg `Pool`: each query borrows a connection; `transaction` holds one
 * connection for BEGIN … COMMIT. Connection failures and timeouts become
 * `EventStoreUnavailableError`; a connection that failed is destroyed, not returned to the pool.
 */
export class PgPoolExecutor implements SqlExecutor {
  constructor(
    /** The underlying pool, for code that needs pg itself (LISTEN, COPY). */
    readonly pool: Pool,
  ) {}

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    try {
      const result = await this.pool.query(sql, params);
      return { rows: result.rows as T[] };
    } catch (error) {
      throw toUnavailableError(error);
    }
  }

  async queryPrepared<T>(name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    try {
      const result = await this.pool.query({ name, text: sql, values: params });
      return { rows: result.rows as T[] };
    } catch (error) {
      throw toUnavailableError(error);
    }
  }

  async exec(script: string): Promise<void> {
    await this.query(script);
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw toUnavailableError(error);
    }
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
class PgClientExecutor implements SqlExecutor {
  constructor(private readonly client: PoolClient) {}

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    try {
      const result = await this.client.query(sql, params);
      return { rows: result.rows as T[] };
    } catch (error) {
      throw toUnavailableError(error);
    }
  }

  async queryPrepared<T>(name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    try {
      const result = await this.client.query({ name, text: sql, values: params });
      return { rows: result.rows as T[] };
    } catch (error) {
      throw toUnavailableError(error);
    }
  }

  async exec(script: string): Promise<void> {
    await this.query(script);
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return runInSavepoint(this, fn);
  }
}
