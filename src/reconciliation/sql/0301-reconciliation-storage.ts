import type { Migration } from '../../event-store/sql/migration.js';

/**
 * What bounds a reconciliation's disk use (docs/reconciliation.md "Storage bounds"):
 *
 * - `ledger_reconciliations.stored_rows` / `stored_bytes`: the rows a run's uploads spilled and
 *   their bytes (the JSON text written), counted against the tenant's bounds while the rows are
 *   kept; `rows_removed_at`: when the sweep removed them (a finished run keeps only its items).
 * - `ledger_recon_first_rows`: per matched operation, the destination line that counts as its
 *   record (the one with the confirmed reference, else the first); every other line of the
 *   operation is a duplicate effect. Computed once, so items are written in chunks of lines.
 * - `ledger_recon_discarded`: uploads refused as a whole, whose spilled rows the sweep removes in
 *   chunks (a refusal answers at once instead of deleting millions of rows in the request).
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
