import type { SqlStatement } from './sql-statement.js';

/** Events of stream `$1` from revision `$2` (decimal text) on; rows `{event}` (`RecordedEventJson`). */
export const READ_STREAM: SqlStatement = {
  name: 'ledger_read_stream',
  text: 'select event from ledger_read_stream($1, $2::text::bigint)',
};
