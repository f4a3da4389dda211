import { PgPoolExecutor } from '../../event-store/postgres/pg-pool-executor.js';
import { PgliteExecutor } from '../../event-store/postgres/pglite-executor.js';
import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { PgProjectionDatabase } from './pg-projection-database.js';
import { PgliteProjectionDatabase } from './pglite-projection-database.js';
import type { ProjectionDatabase } from './projection-database.js';

/**
 * The {@link ProjectionDatabase} over the ledger's SQL database (PostgreSQL or PGlite); any other
 * executor is treated as single-process.
 */
export function projectionDatabaseFor(sql: SqlExecutor): ProjectionDatabase {
  if (sql instanceof PgPoolExecutor) return new PgProjectionDatabase(sql, sql.pool.options);
  if (sql instanceof PgliteExecutor) return new PgliteProjectionDatabase(sql, sql);
  return new PgliteProjectionDatabase(sql);
}
