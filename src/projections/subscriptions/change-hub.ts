import type { ProjectionRuntime } from '../projection-runtime.js';
import type { SseSession } from './sse-session.js';

/**
 * The live subscriptions of this process: wakes the sessions of a read model's feeds when its
 * changes are committed (by this process or — on PostgreSQL, via NOTIFY — by another), and ends
 * them all at shutdown so the HTTP server can close.
 */
export class ChangeHub {
  private readonly sessions = new Set<SseSession>();
  private readonly feedsOf = new Map<string, readonly string[]>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly runtime: ProjectionRuntime) {
    for (const name of runtime.names) this.feedsOf.set(name, runtime.model(name)!.feeds);
  }

  /** Registers a started session; it is removed again when it closes (call {@link remove}). */
  add(session: SseSession): void {
    this.unsubscribe ??= this.runtime.db.onChanges((projection) => this.wake(projection));
    this.sessions.add(session);
  }

  /** Forgets a closed session. */
  remove(session: SseSession): void {
    this.sessions.delete(session);
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
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Wakes the sessions following a feed of `projection` ('' = all). */
  private wake(projection: string): void {
    const feeds = this.feedsOf.get(projection);
    for (const session of this.sessions) {
      if (projection === '' || !feeds || feeds.includes(session.feed)) session.wake();
    }
  }
}
