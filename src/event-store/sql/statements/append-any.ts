import type { SqlStatement } from './sql-statement.js';

/**
 * Appends with expected revision `any`, optionally `onlyIf`, through `ledger_append_any`
 * (sql/functions/ledger-append-any.ts): `$1` = the requests as JSON text. One
 * {@link AppendAnyRow} per request.
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
