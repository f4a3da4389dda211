import { LeaseLostError } from '../errors.js';
import type { WorkerApi } from '../http/worker-api.js';

/** Why `op.signal` aborted because of the lease. */
export class LeasePresumedLostError extends Error {
  override name = 'LeasePresumedLostError';
  constructor(readonly sinceMs: number) {
    super(`no lease renewal succeeded for ${sinceMs} ms; the lease has probably expired`);
  }
}

/**
 * Renews a lease while a job runs (every `leaseMs / 3`). A refused renewal calls `onLost` with a
 * {@link LeaseLostError}; `leaseMs` without a successful renewal since it (or the claim) was sent
 * calls it with a {@link LeasePresumedLostError} (counted from sending, so never after the
 * ledger's own deadline).
 */
export class LeaseKeeper {
  private timer: NodeJS.Timeout | null = null;
  private watchdog: NodeJS.Timeout | null = null;
  private renewing: Promise<void> | null = null;
  private readonly halt = new AbortController();
  private lastRenewedAt: number;
  private stopped = false;

  constructor(
    private readonly api: WorkerApi,
    private readonly operationId: string,
    private readonly fencingToken: number,
    private readonly leaseMs: number,
    private readonly onLost: (reason: Error) => void,
    heldSince: number = Date.now(),
  ) {
    this.lastRenewedAt = heldSince;
  }

  /** Local epoch ms after which, without a successful renewal, the lease is presumed lost. */
  get deadline(): number {
    return this.lastRenewedAt + this.leaseMs;
  }

  /** Starts renewing (and watching the deadline). */
  start(): void {
    const every = Math.max(250, Math.floor(this.leaseMs / 3));
    this.timer = setInterval(() => {
      this.renewing ??= this.renew().finally(() => (this.renewing = null));
    }, every);
    this.timer.unref();
    this.arm();
  }

  /** Stops renewing; aborts a renewal in flight and waits for it to settle. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    this.halt.abort(new Error('lease keeper stopped'));
    await this.renewing;
  }

  private arm(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = setTimeout(
      () => {
        if (this.stopped) return;
        if (Date.now() < this.deadline) return this.arm();
        this.lose(new LeasePresumedLostError(Date.now() - this.lastRenewedAt));
      },
      Math.max(0, this.deadline - Date.now()),
    );
    this.watchdog.unref();
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    const sentAt = Date.now();
    const left = this.deadline - sentAt;
    if (left <= 0) return;
    const signal = AbortSignal.any([this.halt.signal, AbortSignal.timeout(left)]);
    try {
      await this.api.renewLease(this.operationId, this.fencingToken, this.leaseMs, signal);
      if (this.stopped) return;
      this.lastRenewedAt = Math.max(this.lastRenewedAt, sentAt);
      this.arm();
    } catch (err) {
      if (this.stopped) return;
      if (err instanceof LeaseLostError) this.lose(err);
      // Anything else (unreachable, timed out): the watchdog decides at the deadline.
    }
  }

  private lose(reason: Error): void {
    this.stopped = true;
    this.clearTimers();
    this.halt.abort(reason);
    this.onLost(reason);
  }

  private clearTimers(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.watchdog) clearTimeout(this.watchdog);
    this.timer = null;
    this.watchdog = null;
  }
}
