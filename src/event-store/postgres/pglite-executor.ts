import { StoreDeadlineError, storeDeadline, waitUntil } from '../../common/store-deadline.js';
import { EventStoreUnavailableError, StorageUnavailableError } from '../event-store.port.js';
import type { FreeSpace, SqlExecutor, SqlResult } from '../sql-executor.js';
import { runInSavepoint } from '../sql/savepoint.js';
import { mib, RECOVERY_BYTES } from './free-space.js';
import type { PgliteConnection } from './pglite-connection.js';
import { type StorageFailure, storageFailureOf } from './storage-failure.js';
import type { StorageGuard } from './storage-guard.js';
import { toUnavailableError } from './unavailable-error.js';

/** Where the executor reports storage transitions (a Nest Logger fits). */
export interface StorageLog {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Options of {@link PgliteExecutor}. */
export interface PgliteExecutorOptions {
  /**
   * Free-space guard: while {@link StorageGuard.low}, transactions are read-only, so writes fail at
   * once with {@link StorageUnavailableError} (503) and reads are served.
   */
  readonly guard?: StorageGuard;
  /**
   * Opens the same data directory again. A PGlite that failed a WAL write spins on its next call,
   * so it is never called again; with `guard`, it is reopened once {@link StorageGuard.roomToReopen}.
   */
  readonly reopen?: () => Promise<PgliteConnection>;
  /** How often a stopped instance is retried, ms. @defaultValue 1000 */
  readonly reopenPollMs?: number;
  readonly log?: StorageLog;
}

/** SQLSTATE read_only_sql_transaction: a write in a read-only transaction. */
const READ_ONLY_TRANSACTION = '25006';

/**
 * {@link SqlExecutor} over one PGlite instance: a single connection, so calls are serialised here
 * in call order. The executor owns that order (not PGlite's queue) so that no call reaches an
 * instance that failed: after a storage failure ({@link storageFailureOf}) every call fails at once
 * with {@link StorageUnavailableError} until `options.reopen` brought a new instance.
 */
export class PgliteExecutor implements SqlExecutor {
  #db: PgliteConnection;
  #queue: Promise<unknown> = Promise.resolve();
  /** `default_transaction_read_only` as set on the current instance. */
  #readOnly = false;
  #stopped: StorageFailure | undefined;
  #reopenTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(
    db: PgliteConnection,
    private readonly o: PgliteExecutorOptions = {},
  ) {
    this.#db = db;
  }

  /** The current PGlite instance (a new one after a reopen): call it only inside {@link runExclusive}. */
  get db(): PgliteConnection {
    return this.#db;
  }

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    return { rows: (await this.#exclusive((db) => this.call(() => db.query<T>(sql, params)))).rows };
  }

  /** PGlite has one connection and no named statements here: runs `sql` as {@link query}. */
  queryPrepared<T>(_name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    return this.query<T>(sql, params);
  }

  async exec(script: string): Promise<void> {
    await this.#exclusive((db) => this.call(() => db.exec(script)));
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#exclusive(async (db) => {
      await this.call(() => db.exec('begin'));
      let result: T;
      try {
        result = await fn(new PgliteTransactionExecutor(this, db));
      } catch (error) {
        if (!this.#stopped) await this.call(() => db.exec('rollback')).catch(() => undefined);
        throw error;
      }
      const [commit] = await this.call(() => db.exec('commit'));
      if (commit?.command === 'ROLLBACK') {
        throw new Error('the transaction was rolled back at commit: a statement in it had failed');
      }
      return result;
    });
  }

  /** Runs `fn` with the instance to itself (a consistent `dumpDataDir`). */
  runExclusive<T>(fn: (db: PgliteConnection) => Promise<T>): Promise<T> {
    return this.#exclusive((db) => this.call(() => fn(db)));
  }

  /** Why the store cannot take writes now (readiness), or undefined. */
  storageProblem(): string | undefined {
    if (this.#stopped) return this.#stoppedReason();
    return this.o.guard?.low ? this.o.guard.lowReason() : undefined;
  }

  /** Undefined without a guard (in memory). */
  async freeSpace(): Promise<FreeSpace | undefined> {
    const guard = this.o.guard;
    if (!guard) return undefined;
    const freeBytes = await guard.sample();
    return { freeBytes, reserveBytes: guard.reserveBytes, restartBytes: guard.bytesToReopen };
  }

  /**
   * Waits for queued calls, then closes the instance (a shutdown checkpoint) — unless it is stopped,
   * or less than {@link RECOVERY_BYTES} are free: a checkpoint meeting a full disk makes PGlite spin
   * instead of exiting, and the WAL holds every committed transaction anyway. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const guard = this.o.guard;
    guard?.stop();
    clearTimeout(this.#reopenTimer);
    await this.#queue;
    if (this.#stopped) return;
    if (guard && (await guard.sample()) < RECOVERY_BYTES) {
      this.o.log?.warn(
        `storage: ${mib(guard.freeBytes)} MiB free, too little for a shutdown checkpoint: left for crash recovery at the next start`,
      );
      return;
    }
    await this.#db.close();
  }

  /** @internal for {@link PgliteTransactionExecutor}: a storage failure stops the instance. */
  async call<T>(statement: () => Promise<T>): Promise<T> {
    if (this.#stopped) throw new StorageUnavailableError(this.#stoppedReason());
    try {
      return await statement();
    } catch (error) {
      throw this.#failure(error);
    }
  }

  /**
   * Queues `fn` behind every earlier call; applies the guard's read-only switch first. The wait
   * for its turn ends at the running work's store deadline (common/store-deadline.ts) with
   * {@link StoreDeadlineError}, and a turn reached after that runs nothing: its caller was answered
   * already. A turn that started is waited for to its end (one connection: nothing can cut it).
   */
  #exclusive<T>(fn: (db: PgliteConnection) => Promise<T>): Promise<T> {
    const at = storeDeadline();
    let started = false;
    let abandoned = false;
    const turn = this.#queue.then(async () => {
      if (abandoned) throw new StoreDeadlineError();
      started = true;
      if (this.#closed) throw new EventStoreUnavailableError('Event store unavailable: PGlite is closed');
      if (this.#stopped) throw new StorageUnavailableError(this.#stoppedReason());
      await this.#applyReserve();
      return fn(this.#db);
    });
    this.#queue = turn.catch(() => undefined);
    if (at === undefined) return turn;
    return waitUntil(turn, at, () => {
      abandoned = !started;
      return abandoned;
    });
  }

  async #applyReserve(): Promise<void> {
    const low = this.o.guard?.low ?? false;
    if (low === this.#readOnly) return;
    const db = this.#db;
    await this.call(() => db.exec(`set default_transaction_read_only = ${low ? 'on' : 'off'}`));
    this.#readOnly = low;
    if (low) this.o.log?.warn(`${this.o.guard!.lowReason()}: refusing writes (503), serving reads`);
    else this.o.log?.log(`storage: ${mib(this.o.guard!.freeBytes)} MiB free again: taking writes`);
  }

  #failure(error: unknown): unknown {
    const storage = storageFailureOf(error);
    if (storage) {
      this.#stop(storage);
      return new StorageUnavailableError(this.#stoppedReason(), error);
    }
    const code = (error as { code?: unknown } | null)?.code;
    if (code === READ_ONLY_TRANSACTION && this.#readOnly && this.o.guard) {
      return new StorageUnavailableError(this.o.guard.lowReason(), error);
    }
    return toUnavailableError(error);
  }

  #stoppedReason(): string {
    const { kind, detail } = this.#stopped!;
    const guard = this.o.guard;
    const room = guard
      ? `; reopening when ${mib(guard.bytesToReopen)} MiB are free (${mib(guard.freeBytes)} MiB free)`
      : '';
    return `storage: ${kind.replaceAll('-', ' ')}, the embedded database stopped (${detail})${room}`;
  }

  /** Never calls the failed instance again; retries opening the data directory while it can. */
  #stop(failure: StorageFailure): void {
    if (this.#stopped) return;
    this.#stopped = failure;
    const { guard, reopen } = this.o;
    const report = () =>
      this.o.log?.error(
        `${this.#stoppedReason()}; writes and reads answer 503 until then${reopen && guard ? '' : ' (restart needed)'}`,
      );
    // sampled again: the disk may have filled within one poll
    if (guard) void guard.sample().then(report);
    else report();
    if (!guard || !reopen) return;
    const attempt = async () => {
      if (this.#closed) return;
      await guard.sample();
      if (guard.roomToReopen) {
        try {
          this.#db = await reopen(); // the stopped instance is dropped without another call
          this.#readOnly = false;
          this.#stopped = undefined;
          this.o.log?.log(`storage: the embedded database reopened (${mib(guard.freeBytes)} MiB free)`);
          return;
        } catch (error) {
          this.o.log?.warn(`storage: reopening the embedded database failed: ${String(error)}`);
        }
      }
      this.#reopenTimer = setTimeout(() => void attempt(), this.o.reopenPollMs ?? 1000);
      this.#reopenTimer.unref();
    };
    this.#reopenTimer = setTimeout(() => void attempt(), this.o.reopenPollMs ?? 1000);
    this.#reopenTimer.unref();
  }
}

/** {@link SqlExecutor} inside an open transaction of a {@link PgliteExecutor}; nesting uses savepoints. */
class PgliteTransactionExecutor implements SqlExecutor {
  constructor(
    private readonly owner: PgliteExecutor,
    private readonly db: PgliteConnection,
  ) {}

  async query<T>(sql: string, params?: unknown[]): Promise<SqlResult<T>> {
    return { rows: (await this.owner.call(() => this.db.query<T>(sql, params))).rows };
  }

  queryPrepared<T>(_name: string, sql: string, params: unknown[]): Promise<SqlResult<T>> {
    return this.query<T>(sql, params);
  }

  async exec(script: string): Promise<void> {
    await this.owner.call(() => this.db.exec(script));
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return runInSavepoint(this, fn);
  }
}
