/**
 * One step of a database schema: a numbered, named SQL script applied at most once.
 *
 * `version` orders the steps (strictly increasing, >= 1) and is the primary key of
 * `ledger_schema_migrations`; `sql` may hold several statements (it is run as a script, without
 * parameters). A released migration never changes what it does to a database: change the schema
 * with a new one.
 *
 * Stored functions are named artifacts (`sql/functions/`, one file each, `create or replace`): a
 * migration installs a function by its artifact, and a migration that changes a function installs
 * the artifact again. A fresh database therefore gets a function's newest body at its first
 * migration (and again, idempotently, at the later ones), an existing database the same body at
 * the migration that changed it; a body may only use what exists by the first migration that
 * installs it. test/event-store/schema-upgrade.int.spec.ts checks that a database migrated by an
 * earlier release and a fresh one end with the same schema.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
