import { LEDGER_READ_ALL_FUNCTION } from '../functions/ledger-read-all.js';
import { LEDGER_VISIBLE_POSITION_LIMIT_FUNCTION } from '../functions/ledger-visible-position-limit.js';
import type { Migration } from '../migration.js';

/**
 * Re-installs `ledger_visible_position_limit` so a transaction of another database on the same
 * server no longer holds readers back (it had stalled every catch-up while any transaction of
 * the cluster held an id), and `ledger_read_all`, which now computes the bound once per call.
 */
export const visibleLimitPerDatabaseMigration: Migration = {
  version: 10,
  name: 'visible limit per database',
  sql: LEDGER_VISIBLE_POSITION_LIMIT_FUNCTION + LEDGER_READ_ALL_FUNCTION,
};
