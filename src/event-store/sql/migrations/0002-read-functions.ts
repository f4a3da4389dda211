import { LEDGER_EVENT_JSON_FUNCTION } from '../functions/ledger-event-json.js';
import { LEDGER_READ_ALL_FUNCTION } from '../functions/ledger-read-all.js';
import { LEDGER_READ_STREAM_FUNCTION } from '../functions/ledger-read-stream.js';
import { LEDGER_TRANSACTION_BASE_POSITION_FUNCTION } from '../functions/ledger-transaction-base-position.js';
import { LEDGER_VISIBLE_POSITION_LIMIT_FUNCTION } from '../functions/ledger-visible-position-limit.js';
import type { Migration } from '../migration.js';

/** Position arithmetic and the read functions (each documented in `sql/functions/`). */
export const readFunctionsMigration: Migration = {
  version: 2,
  name: 'read functions',
  sql: [
    LEDGER_TRANSACTION_BASE_POSITION_FUNCTION,
    LEDGER_VISIBLE_POSITION_LIMIT_FUNCTION,
    LEDGER_EVENT_JSON_FUNCTION,
    LEDGER_READ_STREAM_FUNCTION,
    LEDGER_READ_ALL_FUNCTION,
  ].join(''),
};
