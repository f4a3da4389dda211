/**
 * The statements of the migration runner (`applyMigrations`) on its bookkeeping table
 * `ledger_schema_migrations`, which every module's migrations share (event store 1–99,
 * projections 100…, API keys 200…, reconciliations 300…).
 */

/** Key of the transaction-scoped advisory lock that serialises schema installs ("Ledger" in ASCII). */
export const SCHEMA_LOCK_KEY = '83998359905650';

/** Serialises concurrent installs (held until the install's transaction ends). */
export const LOCK_SCHEMA = `select pg_advisory_xact_lock(${SCHEMA_LOCK_KEY})`;

/** Creates the bookkeeping table on first use. */
export const CREATE_MIGRATIONS_TABLE = `
create table if not exists ledger_schema_migrations (
  version    integer     primary key,
  name       text        not null,
  applied_at timestamptz not null default now()
)`;

/** Rows `{version, name}` of every applied migration. */
export const SELECT_APPLIED_MIGRATIONS = 'select version, name from ledger_schema_migrations';

/** Records migration `$1` named `$2` as applied. */
export const RECORD_MIGRATION = 'insert into ledger_schema_migrations (version, name) values ($1, $2)';
