import type { SqlStatement } from './sql-statement.js';

/**
 * Up to `$2` events after global position `$1` (decimal text), in global order; rows `{event}`
 * (`RecordedEventJson`).
 */
export const READ_ALL: SqlStatement = {
  name: 'ledger_read_all',
  text: 'select event from ledger_read_all($1::text::bigint, $2::integer)',
};
