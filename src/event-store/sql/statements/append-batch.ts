import { APPEND_COLUMNS } from '../append-row.js';
import type { SqlStatement } from './sql-statement.js';

/**
 * Appends with any expected revisions in one transaction through `ledger_append_batch`: `$1` =
 * `[{stream, expected, events}]` as JSON text. One `AppendRow` per request, with its
 * `request_index` (0-based).
 */
export const APPEND_BATCH: SqlStatement = {
  name: 'ledger_append_batch',
  text: `select request_index, ${APPEND_COLUMNS} from ledger_append_batch($1::text::jsonb)`,
};
