import { LeaseLostError } from '../errors.js';
import type { LedgerApi } from '../http/worker-api.js';

/** Why `op.signal` aborted because of the lease. */
export class LeasePresumedLostError extends Error {
  override name = 'LeasePresumedLostError';
  constructor(readonly sinceMs: number) {
    super(`no lease renewal succeeded for ${sinceMs} ms; the lease has probably expired`);
  }
}

/**
 * Renews a lease while a job runs (`POST …/lease/renew` every `leaseMs / 3`), one renewal at a
 * time. A refused renewal (`stale-token`, `not-in-progress`: someone else took over) aborts
 * through `onLost` with the {@link LeaseLostError}; when no renewal succeeded for a whole
 * `leaseMs` (the ledger unreachable), `onLost` gets a {@link LeasePresumedLostError}.
 */
export class LeaseKeeper {
  private timer: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private lastRenewedAt = Date.now();
  private stopped = false;

  constructor(
    private readonly api: LedgerApi,
    private readonly operationId: string,
    private readonly fencingToken: number,
    private readonly leaseMs: number,
    private readonly onLost: (reason: Error) => void,
  ) {}

  /** Starts renewing. */
  start(): void {
    const every = Math.max(250, Math.floor(this.leaseMs / 3));
    this.timer = setInterval(() => {
      this.renewing ??= this.renew().finally(() => (this.renewing = null));
    }, every);
    this.timer.unref();
  }

  /** Stops renewing; waits for a renewal in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.renewing;
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.api.renewLease(this.operationId, this.fencingToken, this.leaseMs);
      this.lastRenewedAt = Date.now();
    } catch (err) {
      if (this.stopped) return;
      if (err instanceof LeaseLostError) return this.lose(err);
      const since = Date.now() - this.lastRenewedAt;
      if (since >= this.leaseMs) this.lose(new LeasePresumedLostError(since));
    }
  }

  private lose(reason: Error): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopped = true;
    this.onLost(reason);
  }
}
