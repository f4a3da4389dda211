import { applyMigrations } from '../../event-store/sql/apply-migrations.js';
import type { Migration } from '../../event-store/sql/migration.js';
import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { reconciliationsMigration } from './0300-reconciliations.js';
import { reconciliationStorageMigration } from './0301-reconciliation-storage.js';

/** Migrations of the reconciliation module, in apply order (versions 300–399). */
export const RECONCILIATION_MIGRATIONS: readonly Migration[] = [
  reconciliationsMigration,
  reconciliationStorageMigration,
];

/**
 * Installs or upgrades the reconciliation tables: idempotent and safe from several instances at
 * once (applyMigrations serialises on an advisory lock).
 * @returns the versions applied by this call.
 * @throws EventStoreUnavailableError when the database cannot be reached.
 */
export function installReconciliationSchema(sql: SqlExecutor): Promise<number[]> {
  return applyMigrations(sql, RECONCILIATION_MIGRATIONS);
}
