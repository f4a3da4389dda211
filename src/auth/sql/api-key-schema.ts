import { applyMigrations } from '../../event-store/sql/apply-migrations.js';
import type { Migration } from '../../event-store/sql/migration.js';
import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { apiKeysMigration } from './0200-api-keys.js';

/**
 * Migrations of the auth module, in apply order. They share `ledger_schema_migrations` with the
 * event store (versions 1–99) and projections (100–199); auth owns versions 200–299.
 */
export const API_KEY_MIGRATIONS: readonly Migration[] = [apiKeysMigration];

/**
 * Installs or upgrades the API key table: idempotent, and safe from several instances at once
 * (applyMigrations serialises on an advisory lock in one transaction).
 * @returns the versions applied by this call.
 * @throws EventStoreUnavailableError when the database cannot be reached.
 */
export function installApiKeySchema(sql: SqlExecutor): Promise<number[]> {
  return applyMigrations(sql, API_KEY_MIGRATIONS);
}
