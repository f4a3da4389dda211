import type pg from 'pg';
import { newSession } from '../../event-store/postgres/pg-host-target.js';
import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';
import { ListenerSet } from './listener-set.js';
import { CHANGES_CHANNEL, type ProjectionDatabase, type ProjectionLock } from './projection-database.js';

/** Classid of the session-level advisory locks of projectors (objid = hashtext(read model name)). */
export const PROJECTOR_LOCK_CLASS = 1280332626;

interface Session {
  readonly client: pg.Client;
  readonly locks: Set<PgLock>;
  dead: boolean;
  /** Tail of the statement queue: one statement at a time on the session. */
  tail: Promise<unknown>;
}

/** Runs one statement on the session after the ones queued before it. */
function sessionQuery<T extends pg.QueryResultRow>(
  session: Session,
  sql: string,
  params: unknown[],
): Promise<pg.QueryResult<T>> {
  const run = session.tail.then(() => session.client.query<T>(sql, params));
  session.tail = run.catch(() => undefined);
  return run;
}

class PgLock implements ProjectionLock {
  lost = false;
  released = false;
  constructor(
    readonly name: string,
    private readonly session: Session,
    private readonly forget: (lock: PgLock) => void,
  ) {}

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.forget(this);
    if (this.lost || this.session.dead) return;
    await sessionQuery(this.session, 'select pg_advisory_unlock($1, hashtext($2))', [
      PROJECTOR_LOCK_CLASS,
      this.name,
    ]).catch(() => undefined);
  }
}

/**
 * {@link ProjectionDatabase} on PostgreSQL: locks and LISTEN on one dedicated session (TCP
 * keep-alive); when it ends, its locks are marked lost and LISTEN is re-established with backoff.
 */
export class PgProjectionDatabase implements ProjectionDatabase {
  private session: Session | null = null;
  private connecting: Promise<Session | null> | null = null;
  readonly singleConnection = false;
  private readonly changes = new ListenerSet<string>();
  private listeners = 0;
  private readonly heldNames = new Set<string>();
  private closed = false;
  private retryTimer: NodeJS.Timeout | null = null;
  private retryMs = 500;

  constructor(
    readonly executor: SqlExecutor,
    private readonly connection: pg.ClientConfig,
  ) {}

  async tryLock(name: string): Promise<ProjectionLock | null> {
    if (this.closed || this.heldNames.has(name)) return null;
    const session = await this.ensureSession();
    if (!session) return null;
    this.heldNames.add(name);
    try {
      const { rows } = await sessionQuery<{ ok: boolean }>(
        session,
        'select pg_try_advisory_lock($1, hashtext($2)) as ok',
        [PROJECTOR_LOCK_CLASS, name],
      );
      if (!rows[0]?.ok || session.dead) {
        this.heldNames.delete(name);
        return null;
      }
    } catch {
      this.heldNames.delete(name);
      return null;
    }
    const lock = new PgLock(name, session, (l) => {
      session.locks.delete(l);
      this.heldNames.delete(l.name);
    });
    session.locks.add(lock);
    return lock;
  }

  async announceInTransaction(tx: SqlQueryable, projection: string): Promise<void> {
    await tx.query('select pg_notify($1, $2)', [CHANGES_CHANNEL, projection]);
  }

  onChanges(listener: (projection: string) => void): () => void {
    const remove = this.changes.add(listener);
    this.listeners++;
    void this.ensureSession();
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.listeners--;
      remove();
    };
  }

  announceLocally(projection: string): void {
    this.changes.emit(projection);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.changes.clear();
    const session = this.session ?? (await this.connecting);
    this.session = null;
    if (session) this.kill(session);
    await session?.client.end().catch(() => undefined);
  }

  private ensureSession(): Promise<Session | null> {
    if (this.session && !this.session.dead) return Promise.resolve(this.session);
    this.connecting ??= this.connect().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async connect(): Promise<Session | null> {
    if (this.closed) return null;
    const client = newSession({
      ...this.connection,
      application_name: `${this.connection.application_name ?? 'operation-ledger'}:projector`,
      keepAlive: true,
      // Lock and LISTEN statements must never be cancelled by the pool's statement timeout.
      statement_timeout: 0,
      query_timeout: undefined,
    });
    const session: Session = { client, locks: new Set(), dead: false, tail: Promise.resolve() };
    client.on('notification', (message) => {
      if (message.channel === CHANGES_CHANNEL) this.changes.emit(message.payload ?? '');
    });
    client.on('error', () => this.kill(session));
    client.on('end', () => this.kill(session));
    try {
      await client.connect();
      await client.query(`listen ${CHANGES_CHANNEL}`);
    } catch {
      this.kill(session);
      return null;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return null;
    }
    this.session = session;
    this.retryMs = 500;
    this.changes.emit(''); // notifications may have been missed while disconnected
    return session;
  }

  /** Marks `session` dead: its locks are lost; LISTEN is re-established if anyone listens. */
  private kill(session: Session): void {
    if (session.dead) return;
    session.dead = true;
    for (const lock of session.locks) {
      lock.lost = true;
      this.heldNames.delete(lock.name);
    }
    session.locks.clear();
    void session.client.end().catch(() => undefined);
    if (this.session === session) this.session = null;
    if (this.closed || this.listeners === 0 || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.ensureSession();
    }, this.retryMs);
    this.retryTimer.unref();
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
  }
}
