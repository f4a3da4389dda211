import type { SqlExecutor } from '../../event-store/sql-executor.js';
import type { Clock } from '../../common/clock.js';
import type { LedgerWrites } from '../ledger-writes.js';
import type { Phase, ReconciliationRun } from '../run.js';
import { runStore } from '../sql/run-store.js';

/** Thrown when another instance took the run over (this one was presumed dead): stop quietly. */
export class LeaseLostError extends Error {}

/** What a phase works with: the database, the write adapter, the clock and its run's lease. */
export class PhaseContext {
  constructor(
    readonly sql: SqlExecutor,
    readonly writes: LedgerWrites,
    readonly clock: Clock,
    readonly holder: string,
    readonly run: ReconciliationRun,
    /** Throws when the application is stopping (checked at every progress write). */
    private readonly checkStopping: () => void = () => undefined,
    /**
     * Waits (bounded) until the status view has applied every event stored so far, so the
     * snapshot reflects what the ledger has recorded up to the run's start.
     */
    readonly awaitStatusView: () => Promise<void> = async () => undefined,
    /**
     * Throws `DiskFloorError` when the next chunk must not start (too little free space,
     * storage-bounds.ts); checked at every progress write, i.e. between chunks.
     */
    private readonly checkRoom: () => Promise<void> = async () => undefined,
    /** Free space one chunk may write into, bytes (sizes the chunks, chunk-lines.ts). */
    readonly headroomBytes: number = 64 * 1024 * 1024,
  ) {}

  /**
   * Records the phase and its progress (which also extends the lease).
   * @throws LeaseLostError when another instance holds the run now; the stop check's error;
   *   DiskFloorError from the free-space check.
   */
  async progress(phase: Phase, done: number, total: number): Promise<void> {
    this.checkStopping();
    await this.checkRoom();
    if (!(await runStore.progress(this.sql, this.run.id, this.holder, phase, done, total))) {
      throw new LeaseLostError(`reconciliation ${this.run.id} is held by another instance`);
    }
  }
}
