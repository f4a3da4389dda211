import type { SqlStatement } from './sql-statement.js';

/**
 * `ledger_append_any` with `$1` = the requests as JSON text; one {@link AppendAnyRow} per request.
 */
export const APPEND_ANY: SqlStatement = {
  name: 'ledger_append_any',
  text: 'select ord, next_revision, first_global, condition_actual from ledger_append_any($1)',
};

/** A row of {@link APPEND_ANY}. */
export interface AppendAnyRow {
  readonly ord: number;
  readonly next_revision: string | null;
  readonly first_global: string | null;
  readonly condition_actual: string | null;
}
