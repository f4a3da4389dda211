import { APPEND_COLUMNS } from '../append-row.js';
import type { SqlStatement } from './sql-statement.js';

/**
 * Appends expecting exact revisions of distinct streams through `ledger_append_revisions`
 * (sql/functions/ledger-append-revisions.ts), parameters as arrays: `$1` stream names, `$2`
 * expected revisions (decimal text), `$3` each event's request index (0-based), `$4` event ids,
 * `$5` types, `$6` data and `$7` metadata as JSON text. One `AppendRow` per request (`ok` may be
 * null: undecided), with its `request_index`, in request order.
 */
export const APPEND_REVISIONS: SqlStatement = {
  name: 'ledger_append_revisions',
  text:
    `select request_index, ${APPEND_COLUMNS} from ledger_append_revisions(` +
    '$1::text[], $2::bigint[], $3::integer[], $4::uuid[], $5::text[], $6::text[], $7::text[])',
};
