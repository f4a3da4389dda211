import { LEDGER_APPEND_REVISIONS_FUNCTION } from '../functions/ledger-append-revisions.js';
import type { Migration } from '../migration.js';

/**
 * `ledger_append_revisions`: the group commit of appends expecting an exact revision (step
 * start/complete, confirm, renew) as set-based statements over array parameters, instead of
 * `ledger_append_batch`'s per-append `ledger_append` calls over one JSON text. Both older functions
 * stay (a process of the previous release still calls them during a rolling upgrade, and
 * `ledger_append` settles what the set-based call leaves undecided).
 */
export const setRevisionAppendsMigration: Migration = {
  version: 11,
  name: 'set-based revision appends',
  sql: LEDGER_APPEND_REVISIONS_FUNCTION,
};
