import type { SqlStatement } from './sql-statement.js';

/** Deletes the events of stream `$1` below revision `$2` (decimal text); one row `{deleted}` (text). */
export const TRUNCATE_BEFORE: SqlStatement = {
  name: 'ledger_truncate_before',
  text: 'select ledger_truncate_before($1, $2::text::bigint)::text as deleted',
};
