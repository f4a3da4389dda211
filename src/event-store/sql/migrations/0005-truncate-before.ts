import { LEDGER_TRUNCATE_BEFORE_FUNCTION } from '../functions/ledger-truncate-before.js';
import type { Migration } from '../migration.js';

/** `ledger_truncate_before`: retention compaction of one stream (see the function). */
export const truncateBeforeMigration: Migration = {
  version: 5,
  name: 'truncate before',
  sql: LEDGER_TRUNCATE_BEFORE_FUNCTION,
};
