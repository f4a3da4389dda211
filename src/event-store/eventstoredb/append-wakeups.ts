import {
  END,
  streamNameFilter,
  type AllStreamSubscription,
  type EventStoreDBClient,
} from '@eventstore/db-client';

/** Delay before re-subscribing after the subscription failed, ms (doubles up to the maximum). */
const RESUBSCRIBE_MIN_MS = 250;
const RESUBSCRIBE_MAX_MS = 30_000;

/**
 * The port's `subscribeToAppends` on EventStoreDB: other processes' appends arrive through one
 * `subscribeToAll` with a server-side prefix filter (docs "Server-side filtering"). It runs while
 * there are listeners and re-subscribes from the end after a failure (the readers' poll covers the gap).
 */
export class AppendWakeups {
  private readonly listeners = new Set<() => void>();
  private subscription: AllStreamSubscription | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelay = RESUBSCRIBE_MIN_MS;
  private closed = false;

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly prefixes: readonly string[],
  ) {}

  /** Adds `listener` (must not throw). @returns a function that removes it (idempotent). */
  add(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.subscription && !this.retryTimer && !this.closed) this.subscribe();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Wakes every listener (after an append of this process). Listener errors are ignored. */
  announce(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        /* a listener's bug must not fail an append */
      }
    }
  }

  /** Ends the subscription and forgets the listeners. Idempotent. */
  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.stop();
  }

  private subscribe(): void {
    const subscription = this.client.subscribeToAll({
      fromPosition: END,
      filter: streamNameFilter({ prefixes: [...this.prefixes] }),
    });
    this.subscription = subscription;
    subscription.on('confirmation', () => (this.retryDelay = RESUBSCRIBE_MIN_MS));
    subscription.on('data', () => this.announce());
    const failed = () => {
      if (this.subscription !== subscription) return;
      this.subscription = undefined;
      if (this.closed || this.listeners.size === 0) return;
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        if (!this.closed && this.listeners.size > 0) this.subscribe();
      }, this.retryDelay);
      this.retryTimer.unref();
      this.retryDelay = Math.min(this.retryDelay * 2, RESUBSCRIBE_MAX_MS);
    };
    subscription.on('error', failed);
    subscription.on('end', failed);
  }

  private stop(): void {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const subscription = this.subscription;
    this.subscription = undefined;
    subscription?.unsubscribe().catch(() => undefined);
  }
}
