import type { SqlExecutor } from '../sql-executor.js';
import { applyMigrations } from './apply-migrations.js';
import type { Migration } from './migration.js';
import { eventTablesMigration } from './migrations/0001-event-tables.js';
import { readFunctionsMigration } from './migrations/0002-read-functions.js';
import { appendFunctionsMigration } from './migrations/0003-append-functions.js';
import { appendNotificationsMigration } from './migrations/0004-append-notifications.js';
import { truncateBeforeMigration } from './migrations/0005-truncate-before.js';
import { notifyAfterCommitMigration } from './migrations/0006-notify-after-commit.js';
import { dropStreamForeignKeyMigration } from './migrations/0007-drop-stream-foreign-key.js';
import { setAppendFunctionsMigration } from './migrations/0008-set-append-functions.js';
import { heldStreamsByIndexMigration } from './migrations/0009-held-streams-by-index.js';
import { visibleLimitPerDatabaseMigration } from './migrations/0010-visible-limit-per-database.js';

/**
 * The event store schema, shared verbatim by the PostgreSQL and PGlite adapters, in apply order.
 * Versions 1–99 belong to the event store; other modules sharing `ledger_schema_migrations` use
 * their own range (e.g. projections from 100).
 */
export const EVENT_STORE_MIGRATIONS: readonly Migration[] = [
  eventTablesMigration,
  readFunctionsMigration,
  appendFunctionsMigration,
  appendNotificationsMigration,
  truncateBeforeMigration,
  notifyAfterCommitMigration,
  dropStreamForeignKeyMigration,
  setAppendFunctionsMigration,
  heldStreamsByIndexMigration,
  visibleLimitPerDatabaseMigration,
];

/**
 * Installs or upgrades the event store schema (see {@link applyMigrations}): safe to call at every
 * start-up and from several instances at once.
 * @returns the versions applied by this call.
 */
export function installEventStoreSchema(executor: SqlExecutor): Promise<number[]> {
  return applyMigrations(executor, EVENT_STORE_MIGRATIONS);
}
