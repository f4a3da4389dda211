import { installApiKeySchema } from './auth/sql/api-key-schema.js';
import type { SqlExecutor } from './event-store/sql-executor.js';
import { installEventStoreSchema } from './event-store/sql/event-store-schema.js';
import { installProjectionSchema } from './projections/core/projection-schema.js';
import { installReconciliationSchema } from './reconciliation/sql/reconciliation-schema.js';

/**
 * Installs or upgrades every schema a ledger's SQL database holds — the event store (versions
 * 1–99), API keys (200s), projections (100s) and reconciliations (300s) — as the store, the app
 * and its modules do at start-up (each is idempotent, see `applyMigrations`). Used where a
 * database is prepared ahead of any start (the build's initdb template).
 * @returns the versions this call applied, in order. @throws the SQL error of a migration.
 */
export async function installLedgerSchemas(sql: SqlExecutor): Promise<number[]> {
  return [
    ...(await installEventStoreSchema(sql)),
    ...(await installApiKeySchema(sql)),
    ...(await installProjectionSchema(sql)),
    ...(await installReconciliationSchema(sql)),
  ];
}
