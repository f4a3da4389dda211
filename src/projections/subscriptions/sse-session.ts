import type { ServerResponse } from 'node:http';
import type { StoredChange } from '../core/read-model.js';

/** Options of one {@link SseSession}. Durations in milliseconds. */
export interface SseSessionOptions {
  /** The Node.js response, taken over from the framework (nothing written to it yet). */
  readonly res: ServerResponse;
  /** Reads the feed's changes of the tenant after a position, oldest first, at most `limit`. */
  readonly read: (after: bigint, limit: number) => Promise<StoredChange[]>;
  readonly feed: string;
  readonly tenant: string;
  /** Send changes after this position. */
  readonly after: bigint;
  /** True when the client resumed with Last-Event-ID (the `ready` event then carries no id). */
  readonly resumed: boolean;
  /** The read model's checkpoint now (sent with `ready`; the start position of a new subscriber). */
  readonly checkpoint: bigint;
  /** Changes at or before this cannot be answered: a resume from before it gets `reset`. */
  readonly prunedThrough: bigint;
  /** Which changes this subscriber wants (others are skipped, their positions still passed). */
  readonly filter: (change: StoredChange) => boolean;
  /** Called once when the session ends. */
  readonly onClose: () => void;
  /** Fallback poll when no change signal arrives. @defaultValue 1000 */
  readonly pollMs?: number;
  /** Keep-alive comment interval (proxies drop silent connections). @defaultValue 15000 */
  readonly heartbeatMs?: number;
}

const PAGE = 200;

/**
 * One Server-Sent Events subscription to a feed (text/event-stream, WHATWG HTML §9.2): every
 * change of the tenant after the start position, oldest first, as `id: <global position>`,
 * `event: <type>`, `data: <JSON>`. A client that reconnects with `Last-Event-ID` gets every row
 * changed after that id — none missed, none twice unless it changed again — in its latest state:
 * the feed is read from the read model's rows, which carry the position of their last change and
 * are committed with the checkpoint in position order (docs/api.md, Subscriptions). Woken by
 * change signals, with a fallback poll; honours back-pressure (waits for `drain`).
 */
export class SseSession {
  private after: bigint;
  private closed = false;
  private pumping = false;
  private dirty = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly o: SseSessionOptions) {
    this.after = o.after;
  }

  /** The feed this session follows. */
  get feed(): string {
    return this.o.feed;
  }

  /** Sends the headers and the `ready` (or `reset`) event, then the backlog, then live changes. */
  start(): void {
    const { res } = this.o;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.on('close', () => this.close());
    if (res.destroyed) return this.close(); // the client left before the stream started
    let head = 'retry: 2000\n\n';
    // A Last-Event-ID past the checkpoint names no change this read model made (the store was
    // restored from a backup, or the id is made up): waiting for it would leave the client silent.
    const unanswerable =
      this.o.resumed && (this.after < this.o.prunedThrough || this.after > this.o.checkpoint);
    if (unanswerable) {
      head += frame(
        'reset',
        {
          reason:
            this.after > this.o.checkpoint
              ? "your Last-Event-ID is past this read model's checkpoint; reload the read model"
              : 'changes after your Last-Event-ID were pruned; reload the read model',
          checkpoint: this.o.checkpoint.toString(),
        },
        this.o.checkpoint,
      );
      this.after = this.o.checkpoint;
    } else {
      const ready = {
        feed: this.o.feed,
        tenant: this.o.tenant,
        checkpoint: this.o.checkpoint.toString(),
        resumedAfter: this.o.resumed ? this.after.toString() : null,
      };
      head += frame('ready', ready, this.o.resumed ? undefined : this.after);
    }
    res.write(head);
    this.timers.push(setInterval(() => this.wake(), this.o.pollMs ?? 1000));
    this.timers.push(setInterval(() => void this.send(': keep-alive\n\n'), this.o.heartbeatMs ?? 15_000));
    for (const t of this.timers) t.unref();
    this.wake();
  }

  /** New changes may exist: read and send them (coalesced while a read is running). */
  wake(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.dirty = true;
      return;
    }
    void this.pump();
  }

  /**
   * Ends the subscription. Idempotent. With `final`, that event (without an id, so a client
   * resuming with Last-Event-ID is not moved) is the last thing the stream carries: e.g.
   * `shutdown` when the server stops, so a client knows to reconnect rather than seeing a reset.
   */
  close(final?: { readonly event: string; readonly data: unknown }): void {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    if (!this.o.res.writableEnded)
      this.o.res.end(final && this.o.res.headersSent ? frame(final.event, final.data) : undefined);
    this.o.onClose();
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.dirty = false;
        for (;;) {
          const changes = await this.o.read(this.after, PAGE);
          for (const change of changes) {
            if (this.closed) return;
            if (this.o.filter(change))
              await this.send(
                frame(change.type, { ...change.data, position: change.position.toString() }, change.position),
              );
            this.after = change.position;
          }
          if (changes.length < PAGE) break;
        }
      } while (this.dirty && !this.closed);
    } catch {
      // The database is unavailable: keep the connection; the next poll retries from `after`.
    } finally {
      this.pumping = false;
    }
  }

  private async send(text: string): Promise<void> {
    if (this.closed) return;
    if (!this.o.res.write(text)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          this.o.res.off('drain', done);
          this.o.res.off('close', done);
          resolve();
        };
        this.o.res.on('drain', done);
        this.o.res.on('close', done);
      });
    }
  }
}

/** One SSE event block; `id` omitted when undefined. */
function frame(event: string, data: unknown, id?: bigint): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
