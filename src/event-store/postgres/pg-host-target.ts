import pg from 'pg';
import {
  parsePostgresUrl,
  type PostgresHost,
  type PostgresUrl,
  type TargetSessionAttrs,
} from '../../config/postgres-url.js';
import { EventStoreUnavailableError } from '../event-store.port.js';

/** Tells whether a connected session fits `target_session_attrs`; null when it does, else why not. */
const SESSION_CHECK =
  "select pg_is_in_recovery() as in_recovery, current_setting('transaction_read_only') as read_only";

async function unfitReason(client: pg.ClientBase, attrs: TargetSessionAttrs): Promise<string | null> {
  if (attrs === 'any') return null;
  const { rows } = await client.query<{ in_recovery: boolean; read_only: string }>(SESSION_CHECK);
  if (rows[0]?.in_recovery) return 'in recovery (a standby)';
  if (attrs === 'read-write' && rows[0]?.read_only === 'on') return 'read-only';
  return null;
}

/** Points a not yet connected pg client at `host` (a connection string's host would win otherwise). */
function aim(client: pg.Client, host: PostgresHost): void {
  client.host = host.host;
  client.port = host.port;
  const parameters = (client as unknown as { connectionParameters: { host: string; port: number } })
    .connectionParameters;
  parameters.host = host.host;
  parameters.port = host.port;
}

const label = (h: PostgresHost) => `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`;

/**
 * The server a multi-host DATABASE_URL currently points at (docs/production-ha.md): like libpq,
 * the first host fitting `target_session_attrs` wins, remembered until a connection to it fails,
 * so a promoted standby is found without a restart.
 */
export class PgHostTarget {
  private current: PostgresHost | null = null;
  private probing: Promise<PostgresHost> | null = null;

  constructor(
    readonly url: PostgresUrl,
    /** Settings of the probe sessions (the pool's, e.g. credentials, timeouts, TLS). */
    private readonly settings: pg.ClientConfig,
  ) {}

  /**
   * The host to connect to.
   * @throws EventStoreUnavailableError naming each host and why it was skipped.
   */
  pick(): Promise<PostgresHost> {
    if (this.current) return Promise.resolve(this.current);
    this.probing ??= this.probe().finally(() => (this.probing = null));
    return this.probing;
  }

  /** Stops preferring `host` (its connection failed or it is no longer writable). */
  forget(host: PostgresHost): void {
    if (this.current === host) this.current = null;
  }

  /** Checks a freshly connected session; forgets its host and throws when it does not fit. */
  async verify(client: pg.Client, host: PostgresHost): Promise<void> {
    const reason = await unfitReason(client, this.url.targetSessionAttrs);
    if (reason === null) return;
    this.forget(host);
    throw new EventStoreUnavailableError(
      `Event store unavailable: PostgreSQL at ${label(host)} is ${reason}`,
    );
  }

  private async probe(): Promise<PostgresHost> {
    const skipped: string[] = [];
    for (const host of this.url.hosts) {
      const client = new pg.Client({ ...this.settings, statement_timeout: undefined });
      aim(client, host);
      client.on('error', () => undefined);
      try {
        await client.connect();
        const reason = await unfitReason(client, this.url.targetSessionAttrs);
        if (reason === null) {
          this.current = host;
          return host;
        }
        skipped.push(`${label(host)} ${reason}`);
      } catch (error) {
        skipped.push(`${label(host)} ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    throw new EventStoreUnavailableError(
      `Event store unavailable: no host fits target_session_attrs=${this.url.targetSessionAttrs} (${skipped.join('; ')})`,
    );
  }
}

/** A pg `Client` class whose sessions go where `target` points, checked after connecting. */
function clientFor(target: PgHostTarget): typeof pg.Client {
  class TargetedClient extends pg.Client {
    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      const connected = this.connectToTarget();
      if (!callback) return connected;
      const done = callback as (err?: Error) => void; // pg-pool passes (err) and reads no client
      connected.then(
        () => done(),
        (error: Error) => done(error),
      );
    }

    private async connectToTarget(): Promise<pg.Client> {
      const host = await target.pick();
      const stream = (this.connection as unknown as { stream?: { destroyed?: boolean } }).stream;
      if (stream?.destroyed) throw new Error('Connection terminated due to connection timeout');
      aim(this, host);
      // A session that breaks later (failover) makes the next connection probe the list again.
      this.on('error', () => target.forget(host));
      try {
        await super.connect();
      } catch (error) {
        target.forget(host);
        throw error;
      }
      try {
        await target.verify(this, host);
      } catch (error) {
        await this.end().catch(() => undefined);
        throw error;
      }
      return this;
    }
  }
  return TargetedClient;
}

/** pg settings derived from a DATABASE_URL: what `pg.Pool` / `pg.Client` accept. */
export interface PgConnectionSettings {
  /** A single-host URL `pg` can parse (the first host; sessions are re-aimed by `Client`). */
  readonly connectionString: string;
  /** Set when the URL names several hosts or a `target_session_attrs` other than `any`. */
  readonly Client?: typeof pg.Client;
}

/**
 * Connection settings for `pg` from a libpq URL that may name several hosts
 * (`postgresql://h1:5432,h2:5432/db?target_session_attrs=read-write`). `pg` has no multi-host
 * support, so the returned `Client` class picks the host ({@link PgHostTarget}).
 * @param extra further pool/client settings the probe sessions share (timeouts, TLS, options).
 * @throws PostgresUrlError for a malformed URL (loadConfig checks DATABASE_URL earlier).
 */
export function pgConnectionSettings(
  connectionString: string,
  extra: pg.ClientConfig = {},
): PgConnectionSettings {
  const url = parsePostgresUrl(connectionString);
  const single = url.singleHost();
  if (url.hosts.length <= 1 && url.targetSessionAttrs === 'any') return { connectionString: single };
  const target = new PgHostTarget(url, { ...extra, connectionString: single });
  return { connectionString: single, Client: clientFor(target) };
}

/** A dedicated (not pooled) session that follows a failover like pooled connections do. */
export function newSession(config: pg.ClientConfig & { Client?: unknown }): pg.Client {
  const { Client, ...rest } = config;
  const SessionClient = typeof Client === 'function' ? (Client as typeof pg.Client) : pg.Client;
  return new SessionClient(rest);
}
