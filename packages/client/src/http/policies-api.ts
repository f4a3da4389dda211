import { getJson, tenantPath } from './routes.js';
import type { Transport } from './transport.js';

/** A new policy version: the policy, why, and the version it replaces (optimistic check). */
export interface PolicyChange {
  readonly policy: Record<string, unknown>;
  readonly reason: string;
  readonly expectedVersion?: number;
}

/**
 * `ledger.policies`: a tenant's per-action policies (`*` = the tenant's default), versioned with
 * actor and reason. Reading: auditor or operator; `set`: operator.
 */
export class PoliciesApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/tenants/{tenant}/policies/{action}`. */
  get(tenant: string, action: string) {
    return getJson<Record<string, unknown>>(this.transport, policyPath(tenant, action));
  }

  /** `GET …/policies/{action}/history`: every version with actor and reason. */
  history(tenant: string, action: string) {
    return getJson<Record<string, unknown>>(this.transport, policyPath(tenant, action, '/history'));
  }

  /** `PUT …/policies/{action}`: a new version (409 on a stale `expectedVersion`). */
  async set(tenant: string, action: string, change: PolicyChange): Promise<Record<string, unknown>> {
    const path = policyPath(tenant, action);
    return (await this.transport.request<Record<string, unknown>>('PUT', path, { body: change })).body;
  }
}

function policyPath(tenant: string, action: string, rest = ''): string {
  return tenantPath(tenant, `/policies/${encodeURIComponent(action)}${rest}`);
}
