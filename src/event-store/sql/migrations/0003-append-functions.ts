import { LEDGER_APPEND_BATCH_FUNCTION } from '../functions/ledger-append-batch.js';
import { LEDGER_APPEND_FUNCTION } from '../functions/ledger-append.js';
import type { Migration } from '../migration.js';

/** `ledger_append` and `ledger_append_batch`: the whole write path, one round trip per call. */
export const appendFunctionsMigration: Migration = {
  version: 3,
  name: 'append functions',
  sql: LEDGER_APPEND_FUNCTION + LEDGER_APPEND_BATCH_FUNCTION,
};
