import { Inject, Injectable } from '@nestjs/common';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { decideSweep } from '../ledger/index.js';
import { CLOCK, type Clock } from '../common/clock.js';
import { newRequestContext } from '../operations/request-context.js';
import { DecideAndAppend } from '../operations/decide-and-append.js';
import { expiredLeases } from '../projections/status-view.js';

/** What one sweep did. */
export interface SweepReport {
  /** Operations the status view listed with an expired lease. */
  readonly examined: number;
  /** Moved to unknown (a step had started). */
  readonly unknown: number;
  /** Released (nothing had started). */
  readonly released: number;
  /** Already changed since the view was written (renewed, finished, reclaimed): nothing recorded. */
  readonly unchanged: number;
}

/** Most operations one sweep handles; the next sweep takes the rest. */
export const SWEEP_BATCH = 200;

/**
 * The lease sweeper (docs/domain.md "Leases and fencing tokens"): the status view nominates
 * expired leases; each is decided on its own stream, so a worker that acted meanwhile wins.
 */
@Injectable()
export class LeaseSweeper {
  constructor(
    @Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor,
    private readonly loop: DecideAndAppend,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Sweeps up to {@link SWEEP_BATCH} expired leases. @throws EventStoreUnavailableError. */
  async sweepOnce(): Promise<SweepReport> {
    const now = this.clock.now();
    const expired = await expiredLeases(this.sql, now, SWEEP_BATCH);
    const ctx = newRequestContext(`lease-sweeper-${now}`, 'sweeper');
    let unknown = 0;
    let released = 0;
    for (const key of expired) {
      const done = await this.loop.run(
        key,
        (state) => decideSweep({ type: 'SweepExpiredLease', now: this.clock.now() }, state),
        ctx,
      );
      if (done.kind !== 'accepted' || done.events.length === 0) continue;
      if (done.stateAfter.status === 'unknown') unknown++;
      else released++;
    }
    return { examined: expired.length, unknown, released, unchanged: expired.length - unknown - released };
  }
}
