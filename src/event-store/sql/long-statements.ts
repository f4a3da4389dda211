import type { SqlExecutor, SqlResult } from '../sql-executor.js';

/**
 * `sql` for batch work whose statements may each run up to `statementTimeoutMs` instead of the
 * store's timeout (which bounds the claim path).
 */
export function longStatements(sql: SqlExecutor, statementTimeoutMs: number): SqlExecutor {
  const options = { statementTimeoutMs };
  const inTransaction = <T>(fn: (tx: SqlExecutor) => Promise<T>) => sql.transaction(fn, options);
  return {
    query: <T>(text: string, params?: unknown[]): Promise<SqlResult<T>> =>
      inTransaction((tx) => tx.query<T>(text, params)),
    queryPrepared: <T>(name: string, text: string, params: unknown[]): Promise<SqlResult<T>> =>
      inTransaction((tx) => tx.queryPrepared<T>(name, text, params)),
    exec: (script: string) => inTransaction((tx) => tx.exec(script)),
    transaction: (fn) => inTransaction(fn),
    ...(sql.freeSpace ? { freeSpace: () => sql.freeSpace!() } : {}),
  };
}
