import type { SqlExecutor } from '../sql-executor.js';

let savepointCounter = 0;

/**
 * Runs `fn` inside a savepoint of the transaction `tx` is already in: released when `fn` resolves,
 * rolled back to (and the error rethrown) when it throws. Used for nested `transaction` calls.
 */
export async function runInSavepoint<T>(tx: SqlExecutor, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  const name = `ledger_sp_${++savepointCounter}`;
  await tx.exec(`savepoint ${name}`);
  try {
    const result = await fn(tx);
    await tx.exec(`release savepoint ${name}`);
    return result;
  } catch (error) {
    await tx.exec(`rollback to savepoint ${name}`).catch(() => undefined);
    throw error;
  }
}
