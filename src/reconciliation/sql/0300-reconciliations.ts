import type { Migration } from '../../event-store/sql/migration.js';

/**
 * Reconciliation runs and their spill tables (docs/reconciliation.md "How it runs"): uploads are
 * spilled as they stream in and compared by set-based statements, so memory stays bounded.
 * `ledger_recon_operations` is the run's snapshot of the status view, so every category is
 * counted on one state.
 */
export const reconciliationsMigration: Migration = {
  version: 300,
  name: 'reconciliations',
  sql: `
create table ledger_reconciliations (
  id               uuid        primary key,
  tenant           text        not null,
  action           text,
  from_ts          timestamptz,
  to_ts            timestamptz,
  match            text        not null,
  apply            text        not null,
  options          jsonb       not null,
  created_by       jsonb       not null,
  status           text        not null,
  phase            text,
  progress_done    bigint      not null default 0,
  progress_total   bigint      not null default 0,
  destination_rows bigint      not null default 0,
  source_rows      bigint,
  totals           jsonb,
  checkpoint       text,
  error            text,
  holder           text,
  heartbeat_at     timestamptz,
  created_at       timestamptz not null,
  started_at       timestamptz,
  finished_at      timestamptz,
  constraint ledger_reconciliations_match_check check (match in ('operationId', 'providerKey', 'subject')),
  constraint ledger_reconciliations_status_check check (
    status in ('receiving', 'awaiting_source', 'queued', 'running', 'completed', 'failed')
  )
);
create index ledger_reconciliations_tenant_idx on ledger_reconciliations (tenant, created_at desc);
create index ledger_reconciliations_status_idx on ledger_reconciliations (status);

create table ledger_recon_destination_rows (
  recon_id     uuid   not null,
  line         bigint not null,
  record_id    text   not null,
  reference    text,
  fields       jsonb,
  operation_id uuid,
  constraint ledger_recon_destination_rows_pkey primary key (recon_id, line)
);
create index ledger_recon_destination_rows_op_idx on ledger_recon_destination_rows (recon_id, operation_id, line);

create table ledger_recon_source_rows (
  recon_id     uuid   not null,
  line         bigint not null,
  operation_id uuid   not null,
  key          jsonb  not null,
  constraint ledger_recon_source_rows_pkey primary key (recon_id, line)
);
create index ledger_recon_source_rows_op_idx on ledger_recon_source_rows (recon_id, operation_id);

create table ledger_recon_operations (
  recon_id        uuid        not null,
  operation_id    uuid        not null,
  source          text        not null,
  action          text        not null,
  subject         text        not null,
  revision        integer     not null,
  state           text        not null,
  destination_ref text,
  first_seen      timestamptz not null,
  last_change     timestamptz not null,
  in_window       boolean     not null,
  constraint ledger_recon_operations_pkey primary key (recon_id, operation_id)
);

create table ledger_recon_keys (
  recon_id     uuid not null,
  match_ref    text not null,
  operation_id uuid not null,
  constraint ledger_recon_keys_pkey primary key (recon_id, match_ref)
);

create table ledger_recon_items (
  recon_id     uuid        not null,
  seq          bigint      generated always as identity,
  category     text        not null,
  operation_id uuid,
  op_action    text,
  subject      text,
  record_id    text,
  reference    text,
  line         bigint,
  state        text,
  destination_ref text,
  first_seen   timestamptz,
  age_ms       bigint,
  apply_state  text        not null default 'none',
  outcome      text,
  detail       jsonb       not null default '{}',
  constraint ledger_recon_items_pkey primary key (recon_id, seq)
);
create index ledger_recon_items_category_idx on ledger_recon_items (recon_id, category, seq);
create index ledger_recon_items_apply_idx on ledger_recon_items (recon_id, apply_state, seq);
`,
};
