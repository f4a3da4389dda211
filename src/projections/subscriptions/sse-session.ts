import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { StoredChange } from '../core/read-model.js';
import type { FeedSubscriber } from './feed-subscriber.js';
import { frame } from './sse-frame.js';

/** Options of one {@link SseSession}. Durations in milliseconds. */
export interface SseSessionOptions {
  /** The Node.js response, taken over from the framework (nothing written to it yet). */
  readonly res: ServerResponse;
  /** The read model whose feed this is. */
  readonly projection: string;
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
  /** Equal for equal filters (e.g. the filter's JSON with sorted members). */
  readonly filterKey: string;
  /** Called once when the session ends. */
  readonly onClose: () => void;
  /** Keep-alive comment interval (proxies drop silent connections). @defaultValue 15000 */
  readonly heartbeatMs?: number;
}

/**
 * Unsent bytes of earlier writes a client may hold before it leaves the shared cursor and catches
 * up on its own reads (so a slow client neither holds the others back nor makes the process buffer
 * its feed).
 */
const MAX_BUFFERED_BYTES = 256 * 1024;

/**
 * One Server-Sent Events subscription to a feed (WHATWG HTML §9.2): each changed row after the
 * start position, `id` = its global position, so a reconnect with `Last-Event-ID` misses none
 * (docs/api.md "Subscriptions"). Its bytes come from the feed's {@link SharedFeed}.
 */
export class SseSession implements FeedSubscriber {
  private position: bigint;
  private ended = false;
  private heartbeat: NodeJS.Timeout | null = null;
  /** The connection, once the head is written: the body goes to it directly. */
  private socket: Socket | null = null;

  constructor(private readonly o: SseSessionOptions) {
    this.position = o.after;
  }

  /** The read model of this session's feed. */
  get projection(): string {
    return this.o.projection;
  }

  /** The feed this session follows. */
  get feed(): string {
    return this.o.feed;
  }

  get tenant(): string {
    return this.o.tenant;
  }

  get after(): bigint {
    return this.position;
  }

  get closed(): boolean {
    return this.ended;
  }

  get filterKey(): string {
    return this.o.filterKey;
  }

  accepts(change: StoredChange): boolean {
    return this.o.filter(change);
  }

  /**
   * Sends the headers, then — once this response has the connection — the `ready` (or `reset`)
   * event; changes come through {@link write}. Resolves when the stream has begun or ended.
   */
  start(): Promise<void> {
    const { res } = this.o;
    // The body ends with the connection (RFC 9112 §6.3, rule 8), not in chunks: a stream has no
    // natural end. So after the head the body's bytes go straight to the socket, a page's shared
    // Buffer as it is: no chunk size around it, and none of the response's corking of each write
    // until the next tick. Node's removeHeader turns its chunked coding off.
    res.removeHeader('Transfer-Encoding');
    res.removeHeader('Content-Length');
    res.removeHeader('Keep-Alive'); // the connection ends with this answer: nothing to keep alive
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'close',
      'X-Accel-Buffering': 'no',
    });
    // HEAD: the head alone (RFC 9110 §9.3.2); the body below bypasses the response's own check.
    if (res.req.method === 'HEAD') {
      res.end();
      this.close();
      return Promise.resolve();
    }
    res.flushHeaders();
    res.on('close', () => this.close());
    const connection = res.req.socket;
    connection.once('close', () => this.close());
    if (res.socket || connection.destroyed) {
      this.begin();
      return Promise.resolve();
    }
    // Pipelined behind answers still being sent: the connection becomes this response's when they
    // are done, and Node writes the queued head right after announcing it.
    return new Promise<void>((resolve) => {
      res.once('socket', () =>
        process.nextTick(() => {
          this.begin();
          resolve();
        }),
      );
      connection.once('close', () => resolve());
    });
  }

  /** Writes the stream's first event and starts the keep-alive comments. */
  private begin(): void {
    const { res } = this.o;
    // the client left before the stream started
    if (this.ended || res.destroyed || !res.socket || res.socket.destroyed) return this.close();
    const socket = res.socket;
    this.socket = socket;
    let head = 'retry: 2000\n\n';
    // A Last-Event-ID past the checkpoint names no change this read model made (the store was
    // restored from a backup, or the id is made up): waiting for it would leave the client silent.
    const unanswerable =
      this.o.resumed && (this.position < this.o.prunedThrough || this.position > this.o.checkpoint);
    if (unanswerable) {
      head += frame(
        'reset',
        {
          reason:
            this.position > this.o.checkpoint
              ? "your Last-Event-ID is past this read model's checkpoint; reload the read model"
              : 'changes after your Last-Event-ID were pruned; reload the read model',
          checkpoint: this.o.checkpoint.toString(),
        },
        this.o.checkpoint,
      );
      this.position = this.o.checkpoint;
    } else {
      const ready = {
        feed: this.o.feed,
        tenant: this.o.tenant,
        checkpoint: this.o.checkpoint.toString(),
        resumedAfter: this.o.resumed ? this.position.toString() : null,
      };
      head += frame('ready', ready, this.o.resumed ? undefined : this.position);
    }
    socket.write(head);
    this.heartbeat = setInterval(() => void socket.write(': keep-alive\n\n'), this.o.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
  }

  write(chunk: Buffer, through: bigint): boolean {
    const { socket } = this;
    if (this.ended || !socket) return true;
    // Behind means still holding earlier writes: a large page alone may wait in the buffer a while.
    const behind = socket.writableLength > MAX_BUFFERED_BYTES;
    if (chunk.length > 0) socket.write(chunk);
    if (through > this.position) this.position = through;
    return !behind;
  }

  drained(): Promise<void> {
    const { socket } = this;
    if (this.ended || !socket || socket.writableLength === 0 || !socket.writableNeedDrain)
      return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        socket.off('drain', done);
        socket.off('close', done);
        resolve();
      };
      socket.on('drain', done);
      socket.on('close', done);
    });
  }

  /** Ends the subscription (idempotent), with `final` (no id, e.g. `shutdown`) as the last event. */
  close(final?: { readonly event: string; readonly data: unknown }): void {
    if (this.ended) return;
    this.ended = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (final && this.socket && !this.socket.destroyed) this.socket.write(frame(final.event, final.data));
    if (!this.o.res.writableEnded) this.o.res.end();
    this.o.onClose();
  }
}
