import type { Migration } from '../../event-store/sql/migration.js';

/**
 * The API key table. Only SHA-256 hashes of tokens are stored (secret-hash.ts). `roles` is a
 * non-empty subset of the four roles; `tenant` is one tenant or `*`. A rotation moves the current
 * hash to `previous_secret_hash`, accepted until `previous_secret_expires_at`. Revocation sets
 * `revoked_at`; rows are never deleted (audit).
 */
export const apiKeysMigration: Migration = {
  version: 200,
  name: 'api keys',
  sql: `
create table ledger_api_keys (
  key_id                     text        not null,
  name                       text        not null,
  tenant                     text        not null,
  roles                      text[]      not null,
  secret_hash                text        not null,
  previous_secret_hash       text,
  previous_secret_expires_at timestamptz,
  created_at                 timestamptz not null,
  rotated_at                 timestamptz,
  revoked_at                 timestamptz,
  constraint ledger_api_keys_pkey primary key (key_id),
  constraint ledger_api_keys_id_check check (key_id ~ '^[0-9a-f]{24}$'),
  constraint ledger_api_keys_name_check check (length(name) between 1 and 256),
  constraint ledger_api_keys_tenant_check check (tenant <> ''),
  constraint ledger_api_keys_roles_check check (
    cardinality(roles) > 0 and roles <@ array['worker', 'operator', 'auditor', 'admin']::text[]
  ),
  constraint ledger_api_keys_hash_check check (secret_hash ~ '^[0-9a-f]{64}$'),
  constraint ledger_api_keys_previous_hash_check check (
    previous_secret_hash is null or previous_secret_hash ~ '^[0-9a-f]{64}$'
  )
);

create index ledger_api_keys_tenant_idx on ledger_api_keys (tenant);
`,
};
