/**
 * The auth module's public surface, for routes of other modules (projections, SSE, metrics) and
 * for code that starts the ledger in-process (tests, bench, demo). See docs/security.md. Routes
 * that refuse take the problem factories from auth-problems.ts (the HTTP edge).
 */
export { ALL_TENANTS, ANONYMOUS_CALLER, canAccessTenant, type Caller, type TenantScope } from './caller.js';
export { ROLES, isRole, type Role } from './role.js';
export { Public, RequireRole } from './require-role.decorator.js';
export { CurrentCaller } from './current-caller.decorator.js';
export { assertTenantAccess } from './assert-tenant-access.js';
export {
  SseConnectionLimiter,
  type SseConnectionLease,
  type SseConnectionsRefused,
} from './sse-connection-limiter.js';
export { ApiKeyService } from './api-key.service.js';
export { createApiKey, type CreateApiKeyOptions } from './create-api-key.js';
export { createAppApiKey } from './create-app-api-key.js';
export type { ApiKeyView, IssuedApiKey } from './api-key.js';
