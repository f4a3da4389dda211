import { LEDGER_APPEND_ANY_FUNCTION } from '../functions/ledger-append-any.js';
import { LEDGER_CREATE_STREAMS_FUNCTION } from '../functions/ledger-create-streams.js';
import type { Migration } from '../migration.js';

/**
 * Re-installs the set-based append functions: `ledger_append_any` looks its condition streams up
 * one index probe each, so its plan no longer depends on statistics (it had seq-scanned
 * `ledger_streams` with autovacuum off); `ledger_create_streams` is the same statement, now
 * parsing requests with the shared `req` CTE. Same rows, same locks, same order.
 */
export const heldStreamsByIndexMigration: Migration = {
  version: 9,
  name: 'held streams by index',
  sql: LEDGER_CREATE_STREAMS_FUNCTION + LEDGER_APPEND_ANY_FUNCTION,
};
