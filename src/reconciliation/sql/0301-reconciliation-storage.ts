import type { Migration } from '../../event-store/sql/migration.js';

/**
 * What bounds a reconciliation's disk use (docs/reconciliation.md "Storage bounds"): spilled rows
 * and bytes per run, each matched operation's first row (so items are written in chunks), and
 * discarded uploads the sweep removes in chunks rather than in the request.
 */
export const reconciliationStorageMigration: Migration = {
  version: 301,
  name: 'reconciliation-storage',
  sql: `
alter table ledger_reconciliations
  add column stored_rows     bigint      not null default 0,
  add column stored_bytes    bigint      not null default 0,
  add column rows_removed_at timestamptz;
create index ledger_reconciliations_kept_idx on ledger_reconciliations (tenant) where rows_removed_at is null;

create table ledger_recon_first_rows (
  recon_id     uuid   not null,
  operation_id uuid   not null,
  line         bigint not null,
  constraint ledger_recon_first_rows_pkey primary key (recon_id, operation_id)
);

create table ledger_recon_discarded (
  recon_id     uuid        primary key,
  discarded_at timestamptz not null default now()
);
`,
};
