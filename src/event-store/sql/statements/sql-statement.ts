/**
 * One statement the SQL stores run: `name` (also its prepared statement's name) and `text` with
 * `$1`, `$2` … placeholders. One statement per file in this folder.
 */
export interface SqlStatement {
  readonly name: string;
  readonly text: string;
}
