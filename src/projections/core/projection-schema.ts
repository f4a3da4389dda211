import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { applyMigrations } from '../../event-store/sql/apply-migrations.js';
import type { Migration } from '../../event-store/sql/migration.js';

/**
 * Tables shared by all read models (migration versions >= 100; 1–99 belong to the event store):
 * `ledger_projections`, one row per read model (checkpoint, live generation, holder, rebuild).
 */
export const projectionTablesMigration: Migration = {
  version: 100,
  name: 'projection tables',
  sql: `
create table ledger_projections (
  name                  text        primary key,
  position              bigint      not null default -1,
  last_event_at         timestamptz,
  generation            integer     not null default 1,
  updated_at            timestamptz not null default now(),
  holder                text,
  holder_state          text,
  holder_since          timestamptz,
  heartbeat_at          timestamptz,
  rebuild_generation    integer,
  rebuild_position      bigint,
  rebuild_requested_at  timestamptz,
  rebuild_requested_by  text,
  last_rebuild_at       timestamptz,
  changes_pruned_through bigint     not null default -1,
  last_error            text,
  last_error_at         timestamptz,
  constraint ledger_projections_name_check check (name ~ '^[a-z_]+$')
);

create table ledger_projection_changes (
  feed        text        not null,
  position    bigint      not null,
  tenant      text        not null,
  type        text        not null,
  data        jsonb       not null,
  recorded_at timestamptz not null default now(),
  constraint ledger_projection_changes_pkey primary key (feed, position)
);
create index ledger_projection_changes_tenant_idx on ledger_projection_changes (feed, tenant, position);
create index ledger_projection_changes_recorded_idx on ledger_projection_changes (recorded_at);
`,
};

/**
 * Drops the change log: feeds are read from the read models' rows (`ReadModel.readFeed`).
 * `changes_pruned_through` stays, so a resume from before its last prune still gets `reset`.
 */
export const dropChangeLogMigration: Migration = {
  version: 101,
  name: 'drop the feed change log',
  sql: `drop table if exists ledger_projection_changes;`,
};

/** The projection schema, in apply order. */
export const PROJECTION_MIGRATIONS: readonly Migration[] = [
  projectionTablesMigration,
  dropChangeLogMigration,
];

/**
 * Installs or upgrades the shared projection tables (idempotent; safe from several processes).
 * @returns the versions applied by this call.
 */
export function installProjectionSchema(executor: SqlExecutor): Promise<number[]> {
  return applyMigrations(executor, PROJECTION_MIGRATIONS);
}
