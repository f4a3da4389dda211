import type { Migration } from '../migration.js';

/**
 * Drops the per-append NOTIFY trigger of migration 4. A transaction that NOTIFYs takes
 * PostgreSQL's global notification-queue lock at commit, so every append committed one after the
 * other (docs/decisions.md "PostgreSQL store"). The wake-up for other processes is now a
 * separate, throttled NOTIFY that the appending process sends after its commit
 * (PostgresEventStore), off the append path.
 */
export const notifyAfterCommitMigration: Migration = {
  version: 6,
  name: 'notify after commit',
  sql: `drop trigger if exists ledger_events_appended on ledger_events;`,
};
