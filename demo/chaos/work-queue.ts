import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Delivery } from '../intent.js';

/** Why a message entered the queue. */
export type PublishReason = 'webhook' | 'recovery-not-found' | 'reconciler';

/** One message: a webhook delivery, redelivered until a consumer acknowledges it. */
export interface QueueMessage {
  /** Broker-assigned id, unique per published message (like an AMQP delivery tag). */
  readonly tag: number;
  readonly delivery: Delivery;
  readonly reason: PublishReason;
  /** How many times the message was handed to a consumer (1 on the first delivery). */
  deliveries: number;
  /** The consumer holding it un-acked, or null while it waits in the queue. */
  heldBy: string | null;
}

/** What a consumer reports with an ack (or a nack). */
export interface Settlement {
  readonly tag: number;
  readonly outcome: string;
  readonly operationId?: string;
}

/** Counters of the broker, for the summary. */
export interface WorkQueueStats {
  readonly published: Readonly<Record<PublishReason, number>>;
  /** Messages handed to consumers, redeliveries included. */
  readonly handedOut: number;
  /** Messages put back because their consumer died holding them. */
  readonly redeliveredAfterCrash: number;
  /** Messages a consumer gave back (nack), e.g. after an unexpected refusal. */
  readonly nacked: number;
  /** Acks by the outcome the consumer reported. */
  readonly acked: Readonly<Record<string, number>>;
}

/** Largest JSON body the broker reads. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * A tiny in-memory work queue with the semantics of a real broker (AMQP-style consumer acks):
 * a message handed to a consumer stays un-acked until the consumer acks it; when the consumer
 * dies ({@link consumerGone}) or nacks it, the message is put back and delivered again, possibly
 * to another consumer. Consumers talk HTTP: `POST /next {worker}` → 200 `{tag, delivery}` or
 * 204 (nothing ready) or 410 (the consumer was declared gone); `POST /ack {worker, tag, outcome,
 * operationId?}`; `POST /nack {worker, tag, outcome, delayMs?}`.
 */
export class WorkQueue {
  private readonly ready: QueueMessage[] = [];
  private readonly held = new Map<number, QueueMessage>();
  private readonly gone = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private nextTag = 1;
  private readonly published: Record<PublishReason, number> = {
    webhook: 0,
    'recovery-not-found': 0,
    reconciler: 0,
  };
  private handedOut = 0;
  private redeliveredAfterCrash = 0;
  private nacked = 0;
  private readonly acked: Record<string, number> = {};
  private readonly server = createServer((req, res) => {
    // A consumer SIGKILLed mid-request aborts it: drop the socket, never crash the broker.
    this.route(req, res).catch(() => res.destroy());
  });
  private baseUrl: string | null = null;

  /** Called for every ack, with the message and what the consumer reported. */
  onAck: (message: QueueMessage, settlement: Settlement) => void = () => {};

  /** Starts the HTTP endpoint on 127.0.0.1 (ephemeral port); resolves with its base URL. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  /** Adds a message at the tail of the queue; returns its tag. */
  publish(delivery: Delivery, reason: PublishReason): number {
    const message: QueueMessage = { tag: this.nextTag++, delivery, reason, deliveries: 0, heldBy: null };
    this.published[reason]++;
    this.ready.push(message);
    return message.tag;
  }

  /** The message with this tag, held or not (undefined once acked). */
  message(tag: number): QueueMessage | undefined {
    return this.held.get(tag) ?? this.ready.find((m) => m.tag === tag);
  }

  /**
   * The consumer is dead (its process exited): every message it held goes back to the head of the
   * queue, and its later requests are refused (410), so nothing is handed to a dead consumer.
   */
  consumerGone(worker: string): number {
    this.gone.add(worker);
    let requeued = 0;
    for (const message of [...this.held.values()].filter((m) => m.heldBy === worker)) {
      this.held.delete(message.tag);
      message.heldBy = null;
      this.ready.unshift(message);
      requeued++;
    }
    this.redeliveredAfterCrash += requeued;
    return requeued;
  }

  /** True when nothing waits and nothing is held (delayed nacks count as waiting). */
  get idle(): boolean {
    return this.ready.length === 0 && this.held.size === 0 && this.timers.size === 0;
  }

  /** Snapshot of the counters. */
  stats(): WorkQueueStats {
    return {
      published: { ...this.published },
      handedOut: this.handedOut,
      redeliveredAfterCrash: this.redeliveredAfterCrash,
      nacked: this.nacked,
      acked: { ...this.acked },
    };
  }

  /** Stops the endpoint and drops delayed redeliveries. */
  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const worker = typeof body?.worker === 'string' ? body.worker : '';
    if (req.method !== 'POST' || body === null || worker === '')
      return send(res, 400, { error: 'bad request' });
    if (this.gone.has(worker)) return send(res, 410, { error: 'consumer declared gone' });
    if (req.url === '/next') return this.next(res, worker);
    const message = this.held.get(Number(body.tag));
    if (!message || message.heldBy !== worker) return send(res, 409, { error: 'not held by this consumer' });
    const settlement: Settlement = {
      tag: message.tag,
      outcome: String(body.outcome ?? 'unspecified'),
      operationId: typeof body.operationId === 'string' ? body.operationId : undefined,
    };
    this.held.delete(message.tag);
    message.heldBy = null;
    if (req.url === '/ack') {
      this.acked[settlement.outcome] = (this.acked[settlement.outcome] ?? 0) + 1;
      this.onAck(message, settlement);
    } else {
      this.nacked++;
      const delayMs = Math.min(5_000, Math.max(0, Number(body.delayMs) || 0));
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.ready.push(message);
      }, delayMs);
      this.timers.add(timer);
    }
    send(res, 204, null);
  }

  private next(res: ServerResponse, worker: string): void {
    const message = this.ready.shift();
    if (!message) return send(res, 204, null);
    message.deliveries++;
    message.heldBy = worker;
    this.held.set(message.tag, message);
    this.handedOut++;
    send(res, 200, { tag: message.tag, delivery: message.delivery });
  }
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (body === null) {
    res.writeHead(status).end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
