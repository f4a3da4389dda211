import type { TenantScope } from './caller.js';
import type { Role } from './role.js';

/**
 * One API key as stored in `ledger_api_keys` (never its secret: only hashes). Times are epoch ms.
 * A rotated key keeps its previous secret's hash until `previousSecretExpiresAt` (the overlap).
 */
export interface ApiKeyRecord {
  readonly id: string;
  /** Holder of the key (e.g. `ci`, `ops:maria`); recorded as `actor` on operator actions. */
  readonly name: string;
  /** One tenant, or `*` for every tenant. */
  readonly tenant: TenantScope;
  readonly roles: readonly Role[];
  readonly secretHash: string;
  readonly previousSecretHash: string | null;
  readonly previousSecretExpiresAt: number | null;
  readonly createdAt: number;
  readonly rotatedAt: number | null;
  readonly revokedAt: number | null;
}

/** What a key looks like to clients (admin routes, CLI): no hashes; times as ISO 8601 UTC. */
export interface ApiKeyView {
  readonly id: string;
  readonly name: string;
  readonly tenant: TenantScope;
  readonly roles: readonly Role[];
  readonly status: 'active' | 'revoked';
  readonly createdAt: string;
  readonly rotatedAt: string | null;
  readonly revokedAt: string | null;
  /** Until when the secret before the last rotation is still accepted; null when none is. */
  readonly previousSecretExpiresAt: string | null;
}

/** A key together with its token: answered once, at creation or rotation, never again. */
export interface IssuedApiKey {
  readonly key: ApiKeyView;
  /** `olk_<id>_<secret>`: send as `Authorization: Bearer <token>`. */
  readonly token: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The client view of a record; the previous secret's expiry is shown only while it is in force at `now`. */
export function viewOf(record: ApiKeyRecord, now: number): ApiKeyView {
  const overlap = record.previousSecretExpiresAt !== null && record.previousSecretExpiresAt > now;
  return {
    id: record.id,
    name: record.name,
    tenant: record.tenant,
    roles: record.roles,
    status: record.revokedAt === null ? 'active' : 'revoked',
    createdAt: iso(record.createdAt)!,
    rotatedAt: iso(record.rotatedAt),
    revokedAt: iso(record.revokedAt),
    previousSecretExpiresAt:
      overlap && record.revokedAt === null ? iso(record.previousSecretExpiresAt) : null,
  };
}
