import type { Role } from './role.js';

/** Tenant scope of a key: one tenant, or `*` for a platform admin. */
export type TenantScope = string;
export const ALL_TENANTS = '*';

/** Who is calling, as established by the authentication guard from the API key. */
export interface Caller {
  /** Id of the API key (never the secret). `anonymous` when auth is disabled. */
  readonly keyId: string;
  /** Human-readable name of the key's holder; recorded as `actor` on operator actions. */
  readonly name: string;
  readonly tenant: TenantScope;
  readonly roles: readonly Role[];
}

/** The caller when authentication is disabled by configuration: every role, every tenant. */
export const ANONYMOUS_CALLER: Caller = {
  keyId: 'anonymous',
  name: 'anonymous',
  tenant: ALL_TENANTS,
  roles: ['worker', 'operator', 'auditor', 'admin'],
};

/** Whether `caller` may see data of `tenant` (its own tenant, or `*`). */
export function canAccessTenant(caller: Caller, tenant: string): boolean {
  return caller.tenant === ALL_TENANTS || caller.tenant === tenant;
}
