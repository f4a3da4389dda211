import type { ProjectionRuntime } from '../projection-runtime.js';
import { FAN_OUT_WRITES_PER_S, SharedFeed } from './shared-feed.js';
import type { SseSession } from './sse-session.js';

/** Options of the {@link ChangeHub}. */
export interface ChangeHubOptions {
  /** Open subscriptions this process serves at most (LEDGER_MAX_SUBSCRIPTIONS). */
  readonly maxSubscriptions: number;
  /** Fallback poll of each feed when no change signal arrives, ms. @defaultValue 1000 */
  readonly pollMs?: number;
  /** Pacing of each feed (LEDGER_SSE_FAN_OUT_WRITES_PER_S). @defaultValue {@link FAN_OUT_WRITES_PER_S} */
  readonly fanOutWritesPerS?: number;
}

/** Seconds a subscriber refused for the process-wide cap is told to wait (RFC 9110 §10.2.3). */
export const SUBSCRIPTIONS_RETRY_AFTER_S = 5;

/** One slot of the process-wide subscription cap; `release()` is idempotent. */
export interface SubscriptionSlot {
  release(): void;
}

/**
 * No slot: this process serves `serving` subscriptions, its cap; answered 503
 * `too-many-subscriptions` with `Retry-After: retryAfterS` (subscriptions-http-answer.ts).
 */
export interface SubscriptionsFull {
  readonly kind: 'full';
  readonly serving: number;
  readonly retryAfterS: number;
}

/**
 * The live subscriptions of this process. Sessions of one feed of one tenant share one
 * {@link SharedFeed} (one read per change for all of them); the hub wakes a read model's feeds
 * when its changes are committed (by this process or — on PostgreSQL, via NOTIFY — by another),
 * caps the open subscriptions ({@link admit}), and ends them all at shutdown so the HTTP server
 * can close.
 */
export class ChangeHub {
  private readonly sessions = new Set<SseSession>();
  private readonly feeds = new Map<string, SharedFeed>();
  private admitted = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly runtime: ProjectionRuntime,
    private readonly options: ChangeHubOptions,
  ) {}

  /**
   * Takes a slot for a new subscription (release it when the subscription ends), or answers that
   * this process holds `maxSubscriptions` already.
   */
  admit(): { readonly kind: 'admitted'; readonly slot: SubscriptionSlot } | SubscriptionsFull {
    if (this.admitted >= this.options.maxSubscriptions) {
      return { kind: 'full', serving: this.admitted, retryAfterS: SUBSCRIPTIONS_RETRY_AFTER_S };
    }
    this.admitted++;
    let released = false;
    const slot: SubscriptionSlot = {
      release: () => {
        if (released) return;
        released = true;
        this.admitted--;
      },
    };
    return { kind: 'admitted', slot };
  }

  /**
   * Hands a started session to its feed's shared cursor, created at `checkpoint` (the read
   * model's checkpoint the session was opened at) for the feed's first subscriber.
   */
  add(session: SseSession, checkpoint: bigint): void {
    if (session.closed) return;
    this.unsubscribe ??= this.runtime.db.onChanges((projection) => this.wake(projection));
    this.sessions.add(session);
    const id = feedId(session);
    let feed = this.feeds.get(id);
    if (!feed) {
      const model = this.runtime.model(session.projection);
      if (!model) throw new Error(`Read model ${session.projection} is not installed`);
      const { feed: name, tenant } = session;
      const sql = this.runtime.db.executor;
      feed = new SharedFeed(
        (after, limit) => model.readFeed(sql, name, tenant, after, limit),
        checkpoint,
        this.options.pollMs ?? 1000,
        this.options.fanOutWritesPerS ?? FAN_OUT_WRITES_PER_S,
      );
      this.feeds.set(id, feed);
    }
    feed.add(session);
  }

  /** Forgets a closed session (its feed stops once it has no subscriber). */
  remove(session: SseSession): void {
    this.sessions.delete(session);
    const id = feedId(session);
    const feed = this.feeds.get(id);
    if (!feed) return;
    feed.remove(session);
    if (feed.size === 0) {
      feed.stop();
      this.feeds.delete(id);
    }
  }

  /** Number of open sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /**
   * Ends every session (shutdown), each with a final `shutdown` event: `{reason, retryAfterMs}`
   * (the client's `retry:` delay; reconnect with Last-Event-ID to another instance or after restart).
   */
  closeAll(): void {
    const final = {
      event: 'shutdown',
      data: { reason: 'the ledger is shutting down; reconnect with Last-Event-ID', retryAfterMs: 2000 },
    };
    for (const session of [...this.sessions]) session.close(final);
    this.sessions.clear();
    for (const feed of this.feeds.values()) feed.stop();
    this.feeds.clear();
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Wakes the feeds of `projection` ('' = all). */
  private wake(projection: string): void {
    for (const [id, feed] of this.feeds) {
      if (projection === '' || id.startsWith(`${projection}\u0000`)) feed.wake();
    }
  }
}

/** The shared cursor's identity: read model, feed and tenant (filters are applied per session). */
function feedId(s: { projection: string; feed: string; tenant: string }): string {
  return `${s.projection}\u0000${s.feed}\u0000${s.tenant}`;
}
