import type { SqlStatement } from './sql-statement.js';

/**
 * The revisions of the streams named in `$1` (a text array): one row `{stream_name,
 * stream_position}` per existing stream, one primary-key probe each; a read (no transaction id).
 */
export const STREAM_REVISIONS: SqlStatement = {
  name: 'ledger_stream_revisions',
  text: 'select stream_name, stream_position::text as stream_position from ledger_streams where stream_name = any($1::text[])',
};
