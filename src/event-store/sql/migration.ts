/**
 * One step of a database schema: a numbered SQL script applied at most once. A released migration
 * never changes what it does: change the schema with a new one.
 *
 * Stored functions are artifacts (`sql/functions/`, `create or replace`) that each migration
 * changing them installs again, so a fresh database gets the newest body at its first migration: a
 * body may only use what exists by the first migration that installs it.
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}
