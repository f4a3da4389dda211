/**
 * One step of a database schema: a numbered, named SQL script applied at most once.
 *
 * `version` orders the steps (strictly increasing, >= 1) and is the primary key of
 * `ledger_schema_migrations`; `sql` may hold several statements (it is run as a script, without
 * parameters). A migration, once released, is never edited: change the schema with a new one.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
