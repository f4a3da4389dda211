import type pg from 'pg';
import { newSession } from './pg-host-target.js';

/** Options of {@link PgNotificationListener}. Durations in milliseconds. */
export interface PgNotificationListenerOptions {
  /** Connection settings of the dedicated session (e.g. a pg Pool's `options`). */
  readonly connection: pg.ClientConfig;
  /** Channel to LISTEN on (a plain identifier). */
  readonly channel: string;
  /** Called for every notification, and once after each (re)connect (notifications may have been missed). */
  readonly onNotify: (payload: string) => void;
  /** First reconnect delay; doubles up to {@link maxRetryMs} (default 500). */
  readonly retryMs?: number;
  /** Longest reconnect delay (default 10 000). */
  readonly maxRetryMs?: number;
}

/**
 * LISTENs on one channel over a dedicated session (a pooled one would lose the LISTEN). After a
 * reconnect it calls `onNotify('')`, so a reader re-checks what it may have missed. Never throws.
 */
export class PgNotificationListener {
  private client: pg.Client | null = null;
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private delay: number;

  constructor(private readonly options: PgNotificationListenerOptions) {
    if (!/^[a-z_][a-z0-9_]*$/.test(options.channel))
      throw new TypeError(`Bad channel name: ${options.channel}`);
    this.delay = options.retryMs ?? 500;
  }

  /** Connects and LISTENs (in the background; failures are retried). */
  start(): void {
    void this.connect();
  }

  /** Stops listening and ends the session. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = newSession({
      ...this.options.connection,
      application_name: `${this.options.connection.application_name ?? 'operation-ledger'}:listen`,
      keepAlive: true,
    });
    client.on('notification', (message) => {
      if (message.channel === this.options.channel) this.options.onNotify(message.payload ?? '');
    });
    let dead = false;
    const lost = () => {
      if (dead) return;
      dead = true;
      this.lost(client);
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(`listen ${this.options.channel}`);
    } catch {
      lost();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.delay = this.options.retryMs ?? 500;
    this.options.onNotify('');
  }

  /** Called once per session that ended or failed: schedules a reconnect. */
  private lost(client: pg.Client): void {
    if (this.client === client) this.client = null;
    void client.end().catch(() => undefined);
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, this.delay);
    this.retryTimer.unref();
    this.delay = Math.min(this.delay * 2, this.options.maxRetryMs ?? 10_000);
  }
}
