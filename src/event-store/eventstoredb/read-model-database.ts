import pg from 'pg';
import type { LedgerConfig } from '../../config/ledger-config.js';
import { pgConnectionSettings } from '../postgres/pg-host-target.js';
import { PgPoolExecutor } from '../postgres/pg-pool-executor.js';
import { openPglite } from '../postgres/open-pglite.js';
import { toUnavailableError } from '../postgres/unavailable-error.js';
import type { SqlExecutor } from '../sql-executor.js';

/** The SQL database beside an EventStoreDB event store, and how to release it. */
export interface ReadModelDatabase {
  /** Read models, their checkpoints and API keys (the SQL_EXECUTOR of the app). */
  readonly executor: SqlExecutor;
  /** Closes the pool or the embedded database. */
  close(): Promise<void>;
}

/**
 * Opens the database of read models, checkpoints and API keys when the events live in EventStoreDB
 * (docs/eventstoredb.md "How the ledger uses EventStoreDB"): PostgreSQL at `databaseUrl`, else
 * embedded PGlite in `dataDir` (one instance only). No event tables are created here.
 * @throws EventStoreUnavailableError when PostgreSQL cannot be reached (the pool is closed again).
 */
export async function openReadModelDatabase(config: LedgerConfig): Promise<ReadModelDatabase> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      ...pgConnectionSettings(config.databaseUrl, { connectionTimeoutMillis: 5000 }),
      max: config.poolSize,
      statement_timeout: config.storeTimeoutMs,
      query_timeout: config.storeTimeoutMs + 5000,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 10_000,
      application_name: 'operation-ledger',
    });
    pool.on('error', () => undefined); // a dropped idle connection is replaced on the next query
    const executor = new PgPoolExecutor(pool);
    try {
      await executor.query('select 1');
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw toUnavailableError(error);
    }
    return { executor, close: () => pool.end() };
  }
  return openPglite({ dataDir: config.dataDir, diskReserveBytes: config.diskReserveBytes });
}
