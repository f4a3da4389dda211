import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import { beforeStoreDeadline, storeDeadlinePassed } from '../../common/store-deadline.js';
import type { SqlExecutor, SqlResult, TransactionOptions } from '../sql-executor.js';
import { runInSavepoint } from '../sql/savepoint.js';
import { StorageUnavailableError } from '../event-store.port.js';
import { RecentStorageFailure } from './recent-storage-failure.js';
import { storageFailureOf } from './storage-failure.js';
import { toUnavailableError } from './unavailable-error.js';

/** What a pg `Pool` and a checked-out `PoolClient` share: running one query. */
interface PgQueryable {
  query(config: QueryConfig): Promise<QueryResult>;
}

/** How much longer than a long transaction's statement timeout the client waits for an answer, ms. */
const LONG_READ_GRACE_MS = 5000;

/**
 * Statements on a pg pool or client; failures as `toUnavailableError` (storage failures are noted
 * for readiness first). A query without values runs over the simple protocol, so {@link exec}
 * takes multi-statement scripts.
 */
abstract class PgStatements {
  /** `queryTimeoutMs`: the client's read timeout of each query, when not the pool's. */
  protected constructor(
    private readonly target: PgQueryable,
    /** Storage failures (SQLSTATE class 53) seen by this pool, for readiness. */
    readonly storageFailures: RecentStorageFailure,
    private readonly queryTimeoutMs?: number,
  ) {}

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    const result = await this.run(() => this.target.query(this.config({ text: sql, values: params })));
    return { rows: result.rows as T[] };
  }

  async queryPrepared<T>(name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    const result = await this.run(() => this.target.query(this.config({ name, text: sql, values: params })));
    return { rows: result.rows as T[] };
  }

  private config(query: QueryConfig): QueryConfig {
    // pg reads `query_timeout` from a query's config before the pool's (not in its types).
    return this.queryTimeoutMs === undefined
      ? query
      : ({ ...query, query_timeout: this.queryTimeoutMs } as QueryConfig);
  }

  /**
   * Runs `call` within the running work's store deadline (`abandon` gets what `call` brings after
   * it). A storage failure (SQLSTATE class 53) is noted for readiness.
   */
  protected async run<T>(call: () => Promise<T>, abandon?: (late: Promise<T>) => void): Promise<T> {
    try {
      return await beforeStoreDeadline(call, abandon);
    } catch (error) {
      const storage = storageFailureOf(error);
      if (!storage) throw toUnavailableError(error);
      this.storageFailures.note(error);
      throw new StorageUnavailableError(
        `storage: ${storage.kind.replaceAll('-', ' ')} (PostgreSQL: ${storage.detail})`,
        error,
      );
    }
  }

  async exec(script: string): Promise<void> {
    await this.query(script);
  }
}

/**
 * {@link SqlExecutor} over a pg `Pool`. No wait outlasts the running work's store deadline
 * (common/store-deadline.ts); an abandoned statement still runs to its end on its connection
 * (bounded by `query_timeout`). A connection that failed is destroyed, not returned to the pool.
 */
export class PgPoolExecutor extends PgStatements implements SqlExecutor {
  constructor(
    /** The underlying pool, for code that needs pg itself (LISTEN, COPY). */
    readonly pool: Pool,
  ) {
    super(pool, new RecentStorageFailure());
  }

  /** A storage failure PostgreSQL answered in the last seconds (readiness), or undefined. */
  storageProblem(): string | undefined {
    return this.storageFailures.problem();
  }

  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    // A connection that arrives after the deadline goes back to the pool unused.
    const client = await this.run(
      () => this.pool.connect(),
      (late) =>
        void late.then(
          (c) => c.release(),
          () => undefined,
        ),
    );
    const longMs = options.statementTimeoutMs;
    // The client's read timeout stays above the server's, as the pool's does (open()).
    const tx = new PgClientExecutor(
      client,
      this.storageFailures,
      longMs === undefined ? undefined : longMs + LONG_READ_GRACE_MS,
    );
    let broken: unknown;
    // A checked-out client has no pool error listener: a dropped connection's 'error' would crash
    // the process. The next statement fails and the client is released as broken.
    const onError = (error: Error) => (broken = error);
    client.on('error', onError);
    try {
      await tx.exec('begin');
      if (longMs !== undefined)
        await tx.exec(`set local statement_timeout = ${Math.max(1, Math.round(longMs))}`);
      const result = await fn(tx);
      await tx.exec('commit');
      return result;
    } catch (error) {
      // Past the deadline a statement may still be running on the connection: close it (PostgreSQL
      // rolls the transaction back) instead of waiting to send ROLLBACK behind it.
      if (storeDeadlinePassed()) broken = error instanceof Error ? error : new Error(String(error));
      else await client.query('rollback').catch((rollbackError: unknown) => (broken = rollbackError));
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(broken instanceof Error ? broken : undefined);
    }
  }
}

/** {@link SqlExecutor} bound to one pg client inside an open transaction; nesting uses savepoints. */
class PgClientExecutor extends PgStatements implements SqlExecutor {
  constructor(client: PoolClient, storageFailures: RecentStorageFailure, queryTimeoutMs?: number) {
    super(client, storageFailures, queryTimeoutMs);
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return runInSavepoint(this, fn);
  }
}
