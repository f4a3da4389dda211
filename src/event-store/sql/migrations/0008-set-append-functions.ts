import { LEDGER_APPEND_ANY_FUNCTION } from '../functions/ledger-append-any.js';
import { LEDGER_CREATE_STREAMS_FUNCTION } from '../functions/ledger-create-streams.js';
import type { Migration } from '../migration.js';

/**
 * `ledger_create_streams` and `ledger_append_any`: many appends to distinct streams in one call,
 * the fast path of group commit for claims (`no_stream`) and audit events (`any`). Semantics,
 * request and row shapes on the function artifacts.
 */
export const setAppendFunctionsMigration: Migration = {
  version: 8,
  name: 'set-based append functions',
  sql: LEDGER_CREATE_STREAMS_FUNCTION + LEDGER_APPEND_ANY_FUNCTION,
};
