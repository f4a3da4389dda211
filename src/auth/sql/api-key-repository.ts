import type { SqlQueryable } from '../../event-store/sql-executor.js';
import type { ApiKeyRecord } from '../api-key.js';
import type { Role } from '../role.js';

/**
 * SQL of `ledger_api_keys`, one function per statement. Roles travel as comma-joined text and
 * times as epoch milliseconds (float8), which pg and PGlite parse alike.
 */

const COLUMNS = `key_id, name, tenant, array_to_string(roles, ',') as roles, secret_hash,
  previous_secret_hash,
  (extract(epoch from previous_secret_expires_at) * 1000)::float8 as previous_expires_ms,
  (extract(epoch from created_at) * 1000)::float8 as created_ms,
  (extract(epoch from rotated_at) * 1000)::float8 as rotated_ms,
  (extract(epoch from revoked_at) * 1000)::float8 as revoked_ms`;

interface Row {
  key_id: string;
  name: string;
  tenant: string;
  roles: string;
  secret_hash: string;
  previous_secret_hash: string | null;
  previous_expires_ms: number | null;
  created_ms: number;
  rotated_ms: number | null;
  revoked_ms: number | null;
}

const num = (v: number | null) => (v === null ? null : Math.round(Number(v)));
const at = (ms: number) => new Date(ms).toISOString();

function toRecord(row: Row): ApiKeyRecord {
  return {
    id: row.key_id,
    name: row.name,
    tenant: row.tenant,
    roles: row.roles.split(',') as Role[],
    secretHash: row.secret_hash,
    previousSecretHash: row.previous_secret_hash,
    previousSecretExpiresAt: num(row.previous_expires_ms),
    createdAt: num(row.created_ms)!,
    rotatedAt: num(row.rotated_ms),
    revokedAt: num(row.revoked_ms),
  };
}

/** Inserts a new key. @throws the database error (23505 when the id exists). */
export async function insertApiKey(
  sql: SqlQueryable,
  key: Pick<ApiKeyRecord, 'id' | 'name' | 'tenant' | 'roles' | 'secretHash' | 'createdAt'>,
): Promise<ApiKeyRecord> {
  const { rows } = await sql.query<Row>(
    `insert into ledger_api_keys (key_id, name, tenant, roles, secret_hash, created_at)
     values ($1, $2, $3, string_to_array($4, ','), $5, $6::timestamptz)
     returning ${COLUMNS}`,
    [key.id, key.name, key.tenant, key.roles.join(','), key.secretHash, at(key.createdAt)],
  );
  return toRecord(rows[0]!);
}

/** The key with id `id`, or null. */
export async function findApiKey(sql: SqlQueryable, id: string): Promise<ApiKeyRecord | null> {
  const { rows } = await sql.query<Row>(`select ${COLUMNS} from ledger_api_keys where key_id = $1`, [id]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Every key (of `tenant` when given), oldest first. */
export async function listApiKeys(sql: SqlQueryable, tenant?: string): Promise<ApiKeyRecord[]> {
  const { rows } =
    tenant === undefined
      ? await sql.query<Row>(`select ${COLUMNS} from ledger_api_keys order by created_at, key_id`)
      : await sql.query<Row>(
          `select ${COLUMNS} from ledger_api_keys where tenant = $1 order by created_at, key_id`,
          [tenant],
        );
  return rows.map(toRecord);
}

/** How many keys exist, revoked ones included. */
export async function countApiKeys(sql: SqlQueryable): Promise<number> {
  const { rows } = await sql.query<{ n: number }>('select count(*)::int as n from ledger_api_keys');
  return Number(rows[0]!.n);
}

/** Marks the key revoked at `atMs` (keeps an earlier revocation time). Null when there is no such key. */
export async function revokeApiKey(
  sql: SqlQueryable,
  id: string,
  atMs: number,
): Promise<ApiKeyRecord | null> {
  const { rows } = await sql.query<Row>(
    `update ledger_api_keys set revoked_at = coalesce(revoked_at, $2::timestamptz),
       previous_secret_hash = null, previous_secret_expires_at = null
     where key_id = $1 returning ${COLUMNS}`,
    [id, at(atMs)],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/**
 * Replaces an active key's secret hash in one statement, keeping the old one until
 * `previousExpiresAt` when given. Null when there is no active key `id`.
 */
export async function rotateApiKey(
  sql: SqlQueryable,
  id: string,
  newHash: string,
  atMs: number,
  previousExpiresAt: number | null,
): Promise<ApiKeyRecord | null> {
  const { rows } = await sql.query<Row>(
    `update ledger_api_keys set
       previous_secret_hash = case when $4::timestamptz is null then null else secret_hash end,
       previous_secret_expires_at = $4::timestamptz,
       secret_hash = $2,
       rotated_at = $3::timestamptz
     where key_id = $1 and revoked_at is null returning ${COLUMNS}`,
    [id, newHash, at(atMs), previousExpiresAt === null ? null : at(previousExpiresAt)],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}
