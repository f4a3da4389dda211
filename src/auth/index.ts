/** The auth module's public surface (docs/security.md). */
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
