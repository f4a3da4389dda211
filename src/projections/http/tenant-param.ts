import type { Caller } from '../../auth/index.js';
import { assertTenantAccess } from '../../auth/index.js';
import { validationProblem } from '../../common/validation.js';
import { keyPartIssue } from '../../ledger/index.js';

/**
 * Checks the `{tenant}` path segment of a read-model route: a valid key part (else 400
 * `validation` naming `tenant`) that the caller's key may read (else 403 `forbidden-tenant`).
 * @returns the tenant.
 */
export function readableTenant(caller: Caller, tenant: string): string {
  const issue = keyPartIssue('tenant', tenant);
  if (issue) throw validationProblem([{ field: 'tenant', message: issue.message }]);
  assertTenantAccess(caller, tenant);
  return tenant;
}
