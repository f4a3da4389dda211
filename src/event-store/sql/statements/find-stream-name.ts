import type { SqlStatement } from './sql-statement.js';

/** The name of the stream whose UUID alias is `$1`; zero or one row `{stream_name}`. */
export const FIND_STREAM_NAME: SqlStatement = {
  name: 'ledger_find_stream_name',
  text: 'select stream_name from ledger_streams where stream_id = $1::text::uuid',
};
