import type { StoredChange } from '../core/read-model.js';
import type { FeedSubscriber } from './feed-subscriber.js';
import { changeFrame } from './sse-frame.js';

/** Reads a feed's changes after a position, oldest first, at most `limit` (ReadModel.readFeed). */
export type FeedRead = (after: bigint, limit: number) => Promise<StoredChange[]>;

/** Changes per read of a subscriber catching up. */
const PAGE = 200;
/**
 * Changes per read of the shared cursor: what arrived between two paced reads goes to each
 * subscriber as one write, since a socket write costs about as much for 1 KB as for 100 KB
 * (docs/decisions.md, "Live feeds: one write per paced read").
 */
const LIVE_PAGE = 1_000;
/**
 * Subscribers handed a page before the fan-out yields to the event loop, so claims and other
 * requests are served between slices instead of after thousands of socket writes.
 */
const WRITES_PER_SLICE = 100;

/**
 * Writes per second one feed's fan-out aims to stay under by default
 * (LEDGER_SSE_FAN_OUT_WRITES_PER_S; reads start at least N subscribers /
 * this seconds apart), so thousands of subscribers delay their changes a little instead.
 */
export const FAN_OUT_WRITES_PER_S = 4_000;

/**
 * One tenant's feed, read once per page for all its subscribers in this process by a shared
 * cursor (`head`). A subscriber behind the cursor (an old Last-Event-ID, or a slow client) catches
 * up on its own reads, then joins; so each stream is what its own reads would give
 * (docs/api.md "Subscriptions"). A page's bytes are built once per filter.
 */
export class SharedFeed {
  private head: bigint;
  private readonly joined = new Set<FeedSubscriber>();
  private readonly catching = new Set<FeedSubscriber>();
  private pumping = false;
  private dirty = false;
  private lastRead = 0;
  private wakeWaiters: (() => void)[] = [];
  private readonly poll: NodeJS.Timeout;

  /**
   * @param read the feed's read of this tenant.
   * @param start where the cursor starts: the read model's checkpoint when the first subscriber came.
   * @param pollMs fallback poll (ms) when no change signal arrives.
   * @param writesPerS see {@link FAN_OUT_WRITES_PER_S}; Infinity reads on every wake at once.
   */
  constructor(
    private readonly read: FeedRead,
    start: bigint,
    pollMs: number,
    private readonly writesPerS = FAN_OUT_WRITES_PER_S,
  ) {
    this.head = start;
    this.poll = setInterval(() => this.wake(), pollMs);
    this.poll.unref();
  }

  /** Subscribers joined or catching up. */
  get size(): number {
    return this.joined.size + this.catching.size;
  }

  /** Adds a started subscriber: it joins the cursor, or catches up first when behind it. */
  add(subscriber: FeedSubscriber): void {
    if (subscriber.closed) return;
    if (subscriber.after >= this.head) this.joined.add(subscriber);
    else void this.catchUp(subscriber);
    this.wake();
  }

  /** Forgets a subscriber (closed). */
  remove(subscriber: FeedSubscriber): void {
    this.joined.delete(subscriber);
    this.catching.delete(subscriber);
  }

  /** Stops the poll (no subscriber left). */
  stop(): void {
    clearInterval(this.poll);
    this.joined.clear();
    this.catching.clear();
    this.release();
  }

  /** New changes may exist: read them once for every joined subscriber (coalesced while reading). */
  wake(): void {
    this.release();
    if (this.pumping) {
      this.dirty = true;
      return;
    }
    void this.pump();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        const pace = this.lastRead + (this.joined.size * 1000) / this.writesPerS - Date.now();
        if (pace > 0) await new Promise((resolve) => setTimeout(resolve, pace).unref());
        this.dirty = false;
        this.lastRead = Date.now();
        for (;;) {
          const changes = await this.read(this.head, LIVE_PAGE);
          const last = changes.at(-1);
          if (last) await this.fanOut(changes, last.position);
          if (changes.length < LIVE_PAGE) break;
        }
      } while (this.dirty);
    } catch {
      // The database is unavailable: the subscribers keep their connections; the next wake retries.
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Hands one page to every joined subscriber and moves the cursor to its last change. Each
   * change is serialised once, and the page's bytes are encoded once per distinct filter: the
   * subscribers of a filter share one Buffer, so a subscriber costs one socket write of bytes
   * already encoded. The writes go out in slices of {@link WRITES_PER_SLICE}, yielding to the event
   * loop between them. The cursor moves first, so a subscriber that arrives meanwhile is placed
   * against it (joined past it, or catching up on its own reads) and the page reaches only the
   * subscribers that were joined when it was read.
   */
  private async fanOut(changes: readonly StoredChange[], through: bigint): Promise<void> {
    const frames = changes.map(changeFrame);
    const byFilter = new Map<string, Buffer>();
    const from = this.head;
    this.head = through;
    let written = 0;
    for (const s of [...this.joined]) {
      if (s.closed) {
        this.joined.delete(s);
        continue;
      }
      if (!this.joined.has(s) || s.after >= through) continue; // left meanwhile, or already has it
      let chunk: Buffer;
      if (s.after <= from) {
        chunk = byFilter.get(s.filterKey) ?? bytesFor(s, changes, frames);
        byFilter.set(s.filterKey, chunk);
      } else {
        chunk = bytesFor(s, changes, frames); // joined ahead of the cursor: skip what it has seen
      }
      if (!s.write(chunk, through)) {
        this.joined.delete(s);
        void this.catchUp(s);
      }
      if (++written % WRITES_PER_SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Reads for one subscriber until it reaches the cursor, then joins it; a short page while the
   * cursor stood still also joins (rows up to the cursor cannot appear later).
   */
  private async catchUp(s: FeedSubscriber): Promise<void> {
    this.catching.add(s);
    try {
      await s.drained();
      while (!s.closed && this.catching.has(s)) {
        if (s.after >= this.head) {
          this.join(s);
          return;
        }
        const headBefore = this.head;
        let changes: StoredChange[];
        try {
          changes = await this.read(s.after, PAGE);
        } catch {
          await this.nextWake(); // the database is unavailable: retry on the next wake
          continue;
        }
        if (s.closed) return;
        const last = changes.at(-1);
        if (last && !s.write(bytesFor(s, changes, changes.map(changeFrame)), last.position)) {
          await s.drained();
          continue;
        }
        if (changes.length < PAGE && this.head === headBefore) {
          this.join(s);
          return;
        }
      }
    } finally {
      if (s.closed) this.catching.delete(s);
    }
  }

  private join(s: FeedSubscriber): void {
    this.catching.delete(s);
    this.joined.add(s);
  }

  private nextWake(): Promise<void> {
    return new Promise((resolve) => this.wakeWaiters.push(resolve));
  }

  private release(): void {
    for (const resolve of this.wakeWaiters.splice(0)) resolve();
  }
}

/** The blocks of the changes after `s.after` that its filter accepts, as UTF-8. */
function bytesFor(s: FeedSubscriber, changes: readonly StoredChange[], frames: readonly string[]): Buffer {
  let text = '';
  changes.forEach((change, i) => {
    if (change.position > s.after && s.accepts(change)) text += frames[i]!;
  });
  return Buffer.from(text, 'utf8');
}
