import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';

/** Exclusive right to project one read model, held until released or lost. */
export interface ProjectionLock {
  /** True once the lock may be held by someone else (its session dropped). Never goes back. */
  readonly lost: boolean;
  /** Releases the lock. Idempotent. */
  release(): Promise<void>;
}

/**
 * The database of the read models, with a lock per read model across processes and a
 * cross-process "feed changes committed" signal.
 */
export interface ProjectionDatabase {
  readonly executor: SqlExecutor;

  /**
   * True when the database has ONE connection shared with the rest of the ledger (PGlite): each
   * projector transaction then makes every other statement wait, so projectors batch harder.
   */
  readonly singleConnection: boolean;

  /**
   * Tries to take the lock of read model `name` without waiting (PostgreSQL: a session advisory
   * lock, so it ends with its process and another instance takes over).
   * @returns the lock, or null when another holder has it or the database is unreachable.
   */
  tryLock(name: string): Promise<ProjectionLock | null>;

  /**
   * Inside the transaction that wrote feed changes of `projection`: arranges for every process's
   * {@link onChanges} listeners to be called after it commits (PostgreSQL: NOTIFY).
   */
  announceInTransaction(tx: SqlQueryable, projection: string): Promise<void>;

  /** Calls `listener(projection)` when feed changes were committed (by any process). */
  onChanges(listener: (projection: string) => void): () => void;

  /** Signals this process's {@link onChanges} listeners directly (after a local commit). */
  announceLocally(projection: string): void;

  /** Releases locks and dedicated connections (not the executor, which belongs to the store). */
  close(): Promise<void>;
}

/** Channel of the "feed changes committed" notification; payload = the read model's name. */
export const CHANGES_CHANNEL = 'ledger_projection_changes';
