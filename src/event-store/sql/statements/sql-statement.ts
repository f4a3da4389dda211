/**
 * One statement the SQL stores run, as a named artifact: `name` identifies it (and is the name of
 * its per-connection prepared statement where the store prepares it, `SqlExecutor.queryPrepared`),
 * `text` is the SQL with `$1`, `$2` … placeholders. One statement per file in this folder.
 */
export interface SqlStatement {
  readonly name: string;
  readonly text: string;
}
