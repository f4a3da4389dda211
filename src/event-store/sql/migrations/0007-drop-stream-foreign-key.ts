import type { Migration } from '../migration.js';

/**
 * Drops the foreign key `ledger_events.stream_name → ledger_streams`. Every writer of events is
 * one of this schema's append statements, which create or lock the stream row in the same
 * statement or transaction before inserting events, and nothing deletes stream rows; the check
 * cost a `FOR KEY SHARE` lookup of the stream row per inserted event (docs/decisions.md
 * "PostgreSQL store").
 */
export const dropStreamForeignKeyMigration: Migration = {
  version: 7,
  name: 'drop stream foreign key',
  sql: `alter table ledger_events drop constraint if exists ledger_events_stream_fkey;`,
};
