import type { EventStore, RecordedEvent } from '../../event-store/event-store.port.js';

/** Reads a page of the global log: events after `after`, at most `limit` (see EventStore.readAll). */
export type ReadAll = (after: bigint, limit: number) => Promise<RecordedEvent[]>;

/**
 * Shares `readAll` pages between the projectors of one process. Only full pages are cached: one
 * can never change, as readAll never returns an event while an earlier one may still commit.
 * At most `maxEvents` events (LRU). Events are shared: consumers must not mutate them.
 */
export class PageCache {
  private readonly pages = new Map<string, Promise<RecordedEvent[]>>();
  private readonly sizes = new Map<string, number>();
  private cached = 0;

  constructor(
    private readonly store: EventStore,
    private readonly maxEvents = 20_000,
  ) {}

  /** {@link ReadAll} through the cache. */
  readonly readAll: ReadAll = (after, limit) => {
    const key = `${after}:${limit}`;
    const hit = this.pages.get(key);
    if (hit) {
      this.pages.delete(key); // refresh recency
      this.pages.set(key, hit);
      return hit;
    }
    const page = this.store.readAll(after, limit);
    this.pages.set(key, page);
    page.then(
      (events) => {
        if (events.length < limit) this.pages.delete(key);
        else this.keep(key, events.length);
      },
      () => this.pages.delete(key),
    );
    return page;
  };

  private keep(key: string, size: number): void {
    if (!this.pages.has(key)) return;
    this.sizes.set(key, size);
    this.cached += size;
    for (const oldest of this.pages.keys()) {
      if (this.cached <= this.maxEvents) break;
      if (!this.sizes.has(oldest)) continue; // still loading
      this.cached -= this.sizes.get(oldest)!;
      this.sizes.delete(oldest);
      this.pages.delete(oldest);
    }
  }
}
