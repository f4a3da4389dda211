import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import type { ProjectionLock } from '../projections/core/projection-database.js';
import { ProjectionRuntime } from '../projections/projection-runtime.js';
import { LeaseSweeper } from './lease-sweeper.js';
import { RetentionJob } from './retention-job.js';

interface Job {
  readonly name: string;
  readonly intervalMs: number;
  readonly run: () => Promise<unknown>;
}

/**
 * Runs the lease sweeper and the retention job on their intervals (0 = off), each on the one
 * replica holding its lock; another takes over within an interval when the holder dies.
 */
@Injectable()
export class BackgroundJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BackgroundJobs');
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly locks = new Map<string, ProjectionLock>();
  private stopping = false;

  constructor(
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly runtime: ProjectionRuntime,
    private readonly sweeper: LeaseSweeper,
    private readonly retention: RetentionJob,
  ) {}

  onApplicationBootstrap(): void {
    const jobs: Job[] = [
      { name: 'lease-sweeper', intervalMs: this.config.sweepIntervalMs, run: () => this.sweeper.sweepOnce() },
      {
        name: 'retention',
        intervalMs: this.config.retentionIntervalMs,
        run: () => this.retention.compactOnce(),
      },
    ];
    for (const job of jobs.filter((j) => j.intervalMs > 0)) {
      let running = false;
      const tick = async () => {
        if (running || this.stopping) return;
        running = true;
        try {
          if (await this.leads(job.name)) await job.run();
        } catch (err) {
          this.logger.warn(`${job.name}: ${err instanceof Error ? err.message : String(err)}`);
        } finally {
          running = false;
        }
      };
      const timer = setInterval(() => void tick(), job.intervalMs);
      timer.unref();
      this.timers.push(timer);
    }
  }

  /** Whether this process holds (or just took) the job's lock. */
  private async leads(name: string): Promise<boolean> {
    const held = this.locks.get(name);
    if (held && !held.lost) return true;
    const lock = await this.runtime.db.tryLock(`job:${name}`);
    if (!lock) return false;
    this.locks.set(name, lock);
    return true;
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    for (const lock of this.locks.values()) await lock.release();
    this.locks.clear();
  }
}
