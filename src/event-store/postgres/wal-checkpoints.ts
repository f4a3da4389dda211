import { RECOVERY_BYTES } from './free-space.js';
import type { PgliteExecutor } from './pglite-executor.js';
import type { StorageGuard } from './storage-guard.js';

/** WAL written since the last checkpoint that makes the next one due, bytes (four 16 MiB segments). */
export const DEFAULT_CHECKPOINT_WAL_BYTES = 64 * 1024 * 1024;

/** Options of {@link WalCheckpoints}. */
export interface WalCheckpointsOptions {
  /** A checkpoint is due once this much WAL was written since the last one, bytes. @defaultValue 64 MiB */
  readonly walBytes?: number;
  /** How often that is looked at, ms. @defaultValue 10 000 */
  readonly pollMs?: number;
  /** Free space of the data directory's volume: no checkpoint with less than 16 MiB free. */
  readonly guard?: StorageGuard;
}

/**
 * Checkpoints the embedded database when enough WAL has accumulated: PGlite runs PostgreSQL in
 * single-user mode, with no checkpointer, so `pg_wal` would grow until the next restart. Skipped
 * below {@link RECOVERY_BYTES} free (the checkpoint record could need a new segment).
 */
export class WalCheckpoints {
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(
    private readonly executor: PgliteExecutor,
    private readonly o: WalCheckpointsOptions = {},
  ) {}

  /** Looks every `pollMs` (the timer does not keep the process alive). */
  start(): void {
    this.#timer ??= setInterval(
      () => void this.checkpointIfDue().catch(() => false),
      this.o.pollMs ?? 10_000,
    );
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /**
   * @returns whether a checkpoint ran.
   * @throws what the executor throws (a stopped or closed database).
   */
  async checkpointIfDue(): Promise<boolean> {
    if (this.#running) return false;
    if (this.o.guard && this.o.guard.freeBytes < RECOVERY_BYTES) return false;
    this.#running = true;
    try {
      return await this.executor.runExclusive(async (db) => {
        const { rows } = await db.query<{ since: string }>(
          `select pg_wal_lsn_diff(pg_current_wal_lsn(), redo_lsn)::bigint::text as since from pg_control_checkpoint()`,
        );
        if (Number(rows[0]!.since) < (this.o.walBytes ?? DEFAULT_CHECKPOINT_WAL_BYTES)) return false;
        await db.exec('checkpoint');
        return true;
      });
    } finally {
      this.#running = false;
    }
  }
}
