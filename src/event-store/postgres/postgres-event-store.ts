import pg from 'pg';
import { installEventStoreSchema } from '../sql/event-store-schema.js';
import { APPENDED_CHANNEL, NOTIFY_APPENDED } from '../sql/statements/notify-appended.js';
import type { GroupCommitOptions } from '../group-commit.js';
import { SqlEventStore } from '../sql-event-store.js';
import { pgConnectionSettings } from './pg-host-target.js';
import { PgNotificationListener } from './pg-notification-listener.js';
import { PgPoolExecutor } from './pg-pool-executor.js';
import { toUnavailableError } from './unavailable-error.js';

/** Connection settings of {@link PostgresEventStore}. Durations in milliseconds. */
export interface PostgresEventStoreOptions {
  /** libpq-style URL, e.g. `postgres://ledger@127.0.0.1:5432/ledger`. */
  readonly connectionString: string;
  /** Maximum pooled connections (default 10). */
  readonly poolSize?: number;
  /** Server-side `statement_timeout` per statement, including waits for a stream's lock (default 5000). */
  readonly statementTimeoutMs?: number;
  /** Time allowed to open a connection, or to wait for a free one (default 5000). */
  readonly connectionTimeoutMs?: number;
  /** Idle connections above {@link keepConnections} are closed after this, ms (default 10000). */
  readonly idleTimeoutMs?: number;
  /**
   * Connections kept open while idle (pg-pool's `min`; default: the pool size). A new session
   * recompiles the PL/pgSQL functions and refills catalog caches (docs/decisions.md "PostgreSQL
   * store"), so bursts after a pause would pay that again.
   */
  readonly keepConnections?: number;
  /** `application_name` shown in pg_stat_activity (default `operation-ledger`). */
  readonly applicationName?: string;
  /** Group commit of `no_stream` appends (claims); default {@link groupCommitFor}. */
  readonly groupCommit?: GroupCommitOptions;
}

/**
 * Default group commit for a pool of `poolSize`: a quarter of the connections (1–3) write claim
 * batches of up to 64; fewer batches in flight make bigger batches (docs/decisions.md "PostgreSQL
 * store").
 */
export function groupCommitFor(poolSize: number): GroupCommitOptions {
  return { maxInFlight: Math.min(3, Math.max(1, Math.floor(poolSize / 4))), maxBatchSize: 64 };
}

/** Least time between two wake-up NOTIFYs of one process under continuous appends, ms. */
const NOTIFY_MIN_INTERVAL_MS = 10;

/**
 * The production event store: PostgreSQL through a pg `Pool`, on the shared schema; create it with
 * {@link PostgresEventStore.open}. Unreachable server, dropped connections and timeouts raise
 * `EventStoreUnavailableError`.
 */
export class PostgresEventStore extends SqlEventStore {
  private constructor(
    private readonly pgExecutor: PgPoolExecutor,
    groupCommit: GroupCommitOptions,
    private readonly listener: { current: PgNotificationListener | null } = { current: null },
  ) {
    super(
      pgExecutor,
      async () => {
        await listener.current?.close();
        await pgExecutor.pool.end();
      },
      { groupCommit },
    );
  }

  #notifying = false;
  #notifyAgain = false;

  /**
   * NOTIFY after the commit, one at a time (appends meanwhile fold into one more) — never inside
   * the append's transaction, which serialises every commit. Failures are ignored: listeners poll.
   */
  protected override signalOtherProcesses(): void {
    if (this.#notifying) {
      this.#notifyAgain = true;
      return;
    }
    this.#notifying = true;
    this.pgExecutor
      .query(NOTIFY_APPENDED.text)
      .catch(() => undefined)
      .finally(() => {
        this.#notifying = false;
        if (this.#notifyAgain) {
          this.#notifyAgain = false;
          setTimeout(() => this.signalOtherProcesses(), NOTIFY_MIN_INTERVAL_MS).unref();
        }
      });
  }

  protected override watchOtherWriters(announce: () => void): void {
    this.listener.current = new PgNotificationListener({
      connection: this.pgExecutor.pool.options,
      channel: APPENDED_CHANNEL,
      onNotify: announce,
    });
    this.listener.current.start();
  }

  /** The pg executor (and `.pool`) for projections that keep tables in the same database. */
  override get executor(): PgPoolExecutor {
    return this.pgExecutor;
  }

  /**
   * Connects and installs the schema.
   * @throws EventStoreUnavailableError when PostgreSQL cannot be reached (the pool is closed again).
   */
  static async open(options: PostgresEventStoreOptions): Promise<PostgresEventStore> {
    const statementTimeout = options.statementTimeoutMs ?? 5000;
    const connectionTimeout = options.connectionTimeoutMs ?? 5000;
    const applicationName = options.applicationName ?? 'operation-ledger';
    const pool = new pg.Pool({
      // Several hosts and target_session_attrs (docs/production-ha.md): pg-host-target.ts.
      ...pgConnectionSettings(options.connectionString, {
        connectionTimeoutMillis: connectionTimeout,
        application_name: applicationName,
      }),
      max: options.poolSize ?? 10,
      statement_timeout: statementTimeout,
      query_timeout: statementTimeout + connectionTimeout,
      connectionTimeoutMillis: connectionTimeout,
      idleTimeoutMillis: options.idleTimeoutMs ?? 10_000,
      min: Math.min(options.keepConnections ?? options.poolSize ?? 10, options.poolSize ?? 10),
      application_name: applicationName,
      // The set-based append's generic plan crosses jit_above_cost and then spends more compiling
      // than running (docs/decisions.md "PostgreSQL store").
      options: '-c jit=off',
    });
    // An idle connection dropped by the server emits 'error'; unhandled, it would crash the process.
    pool.on('error', () => undefined);
    const groupCommit = options.groupCommit ?? groupCommitFor(options.poolSize ?? 10);
    const store = new PostgresEventStore(new PgPoolExecutor(pool), groupCommit);
    try {
      await installEventStoreSchema(store.executor);
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw toUnavailableError(error);
    }
    return store;
  }
}
