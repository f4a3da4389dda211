import { APPEND_COLUMNS } from '../append-row.js';
import type { SqlStatement } from './sql-statement.js';

/**
 * One append through `ledger_append`: `$1` stream, `$2` expected revision (`no_stream`, `any` or
 * decimal), `$3` events as JSON text, `$4` stream id (UUID text or null). One `AppendRow`.
 */
export const APPEND: SqlStatement = {
  name: 'ledger_append',
  text: `select ${APPEND_COLUMNS} from ledger_append($1, $2, $3::text::jsonb, $4::text::uuid)`,
};
