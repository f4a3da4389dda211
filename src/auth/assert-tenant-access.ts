import { canAccessTenant, type Caller } from './caller.js';
import { forbiddenTenant } from './auth-problems.js';

/**
 * Refuses a request that NAMES a tenant the caller's key is not bound to (a claim body, a list
 * route's `{tenant}` path segment, a report filter). `*` keys may name any tenant.
 * Use it where the client chose the tenant; for a resource addressed by id (an operation), answer
 * the same 404 as for an unknown id instead, so no one learns what exists in other tenants.
 * @throws ProblemException 403 `forbidden-tenant`.
 */
export function assertTenantAccess(caller: Caller, tenant: string): void {
  if (!canAccessTenant(caller, tenant)) throw forbiddenTenant(tenant);
}
