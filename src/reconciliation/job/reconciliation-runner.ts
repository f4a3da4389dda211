import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { EventStoreUnavailableError } from '../../event-store/event-store.port.js';
import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../event-store/sql-executor.token.js';
import { longStatements } from '../../event-store/sql/long-statements.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { ContentionError } from '../../common/contention.error.js';
import { ProjectionRuntime } from '../../projections/projection-runtime.js';
import { LedgerWrites } from '../ledger-writes.js';
import type { ReconciliationRun } from '../run.js';
import { removeFinishedRows } from '../sql/remove-rows.js';
import { runStore } from '../sql/run-store.js';
import { DiskFloorError, diskFloorReason, storageBoundsFromEnv } from '../storage-bounds.js';
import { LeaseLostError, PhaseContext } from './phase-context.js';
import { runPhases } from './run-phases.js';

/** How often the runner looks for queued runs and silent holders, ms (a new run also wakes it). */
const POLL_MS = Number(process.env['LEDGER_RECONCILIATION_POLL_MS'] ?? 2000) || 2000;
/** How often a held run's lease is extended while a long statement runs, ms. */
const HEARTBEAT_MS = 5000;
/** Wait after the store was unreachable, ms. */
const BACKOFF_MS = 2000;
/**
 * Longest one statement of a run's phases may take, ms (LEDGER_RECONCILIATION_STATEMENT_TIMEOUT_MS):
 * they are set-based over all of a run's rows, far past the claim path's store timeout.
 */
const PHASE_STATEMENT_TIMEOUT_MS =
  Number(process.env['LEDGER_RECONCILIATION_STATEMENT_TIMEOUT_MS'] ?? 600_000) || 600_000;
/** Longest wait for the status view to catch up before a snapshot, ms (then it is taken as is). */
const STATUS_VIEW_WAIT_MS = 30_000;

/** Free space the sweep's delete chunks keep above what a restart needs, bytes. */
const SWEEP_HEADROOM_BYTES = 8 * 1024 * 1024;

/** Thrown out of a phase when the application stops: the run is let go and resumed later. */
class StoppingError extends Error {}

/**
 * Runs reconciliations in the background, one at a time per instance (docs/reconciliation.md
 * "How it runs"). An unreachable store leaves the run to be resumed; any other error fails it
 * with the message (never a half report shown complete).
 */
@Injectable()
export class ReconciliationRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Reconciliation');
  /** Holder id of this instance: host, pid and a random suffix. */
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private stopping = false;
  private readonly headroomBytes = storageBoundsFromEnv().diskHeadroomBytes;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly writes: LedgerWrites,
    private readonly projections: ProjectionRuntime,
  ) {}

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  /** Wakes the runner now (a run was queued). */
  poke(): void {
    this.wake?.();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    this.poke();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      let pause = POLL_MS;
      try {
        await runStore.failAbandonedUploads(this.sql);
        const run = await runStore.takeNext(this.sql, this.holder);
        if (run) {
          await this.execute(run);
          pause = 0;
        } else if (await this.sweep()) pause = 0;
      } catch (err) {
        pause = BACKOFF_MS;
        if (!(err instanceof EventStoreUnavailableError)) this.logger.warn(describe(err));
      }
      if (pause > 0 && !this.stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pause);
          timer.unref();
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
  }

  /** Until the operations read model has no lag, at most {@link STATUS_VIEW_WAIT_MS}. */
  private async awaitStatusView(): Promise<void> {
    const deadline = Date.now() + STATUS_VIEW_WAIT_MS;
    while (Date.now() < deadline && !this.stopping) {
      const { lag } = await this.projections.freshnessOf('operations');
      if (lag.events === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Throws DiskFloorError when reconciliation work must not start another chunk: the volume has
   * less free than a restart needs plus the headroom (storage-bounds.ts).
   */
  private async assertRoom(): Promise<void> {
    const reason = diskFloorReason(await this.sql.freeSpace?.(), this.headroomBytes);
    if (reason) throw new DiskFloorError(reason);
  }

  /**
   * One round of removing finished runs' rows; it needs less room than a phase chunk, so it still
   * runs after a run was stopped for want of space. @returns whether there may be more to remove.
   */
  private async sweep(): Promise<boolean> {
    const headroom = Math.min(this.headroomBytes, SWEEP_HEADROOM_BYTES);
    const room = async () => !this.stopping && !diskFloorReason(await this.sql.freeSpace?.(), headroom);
    return removeFinishedRows(this.sql, room, this.sql.freeSpace !== undefined);
  }

  private async execute(run: ReconciliationRun): Promise<void> {
    const timer = setInterval(() => {
      void runStore.heartbeat(this.sql, run.id, this.holder).catch(() => undefined);
    }, HEARTBEAT_MS);
    timer.unref();
    const ctx = new PhaseContext(
      longStatements(this.sql, PHASE_STATEMENT_TIMEOUT_MS),
      this.writes,
      this.clock,
      this.holder,
      run,
      () => {
        if (this.stopping) throw new StoppingError('stopping');
      },
      () => this.awaitStatusView(),
      () => this.assertRoom(),
      this.headroomBytes,
    );
    try {
      await runPhases(ctx);
    } catch (err) {
      if (err instanceof LeaseLostError) return;
      if (
        err instanceof StoppingError ||
        err instanceof EventStoreUnavailableError ||
        err instanceof ContentionError
      ) {
        await runStore.release(this.sql, run.id, this.holder).catch(() => undefined);
        if (!(err instanceof StoppingError)) throw err;
        return;
      }
      const error =
        err instanceof DiskFloorError
          ? `the comparison was stopped before its next chunk: ${err.message}; its rows are removed, run it again once there is room`
          : `the comparison failed: ${err instanceof Error ? err.message : String(err)}`;
      this.logger.error(
        `reconciliation ${run.id} failed: ${err instanceof DiskFloorError ? error : describe(err)}`,
      );
      await runStore.transition(this.sql, run.id, ['running'], 'failed', { error, holder: null });
    } finally {
      clearInterval(timer);
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
