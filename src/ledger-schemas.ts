import { installApiKeySchema } from './auth/sql/api-key-schema.js';
import type { SqlExecutor } from './event-store/sql-executor.js';
import { installEventStoreSchema } from './event-store/sql/event-store-schema.js';
import { installProjectionSchema } from './projections/core/projection-schema.js';
import { installReconciliationSchema } from './reconciliation/sql/reconciliation-schema.js';

/**
 * Installs or upgrades every schema a ledger's SQL database holds, as start-up does; for a
 * database prepared ahead of any start (the build's initdb template).
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
