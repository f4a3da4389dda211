import { keyPartIssue } from '../ledger/index.js';
import { ALL_TENANTS, type TenantScope } from './caller.js';
import { isRole, type Role } from './role.js';

/** What a new key is bound to. */
export interface ApiKeyInput {
  /** One tenant (same rules as the operation key's `tenant`) or `*` for every tenant. */
  readonly tenant: TenantScope;
  /** At least one of worker, operator, auditor, admin. */
  readonly roles: readonly Role[];
  /** Holder of the key, 1..256 characters, recorded as `actor` on operator actions. */
  readonly name: string;
}

/** A key input broke a rule; `field` names it (tenant, roles or name). */
export class ApiKeyInputError extends Error {
  override readonly name = 'ApiKeyInputError';
  constructor(
    readonly field: 'tenant' | 'roles' | 'name',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Checks and normalises a key input (roles de-duplicated, in canonical order).
 * @throws ApiKeyInputError naming the field at fault.
 */
export function validateApiKeyInput(input: { tenant: unknown; roles: unknown; name: unknown }): ApiKeyInput {
  const { tenant, roles, name } = input;
  if (tenant !== ALL_TENANTS) {
    const issue = keyPartIssue('tenant', tenant);
    if (issue) throw new ApiKeyInputError('tenant', `tenant must be "*" or a valid tenant: ${issue.message}`);
  }
  if (!Array.isArray(roles) || roles.length === 0 || !roles.every(isRole)) {
    throw new ApiKeyInputError('roles', 'roles must be a non-empty list of worker, operator, auditor, admin');
  }
  if (typeof name !== 'string' || name.trim() === '' || name.length > 256 || /\p{Cc}/u.test(name)) {
    throw new ApiKeyInputError('name', 'name must be 1..256 characters without control characters');
  }
  const set = new Set<Role>(roles);
  const ordered = (['worker', 'operator', 'auditor', 'admin'] as const).filter((r) => set.has(r));
  return { tenant: tenant as string, roles: ordered, name };
}
