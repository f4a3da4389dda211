import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import type { Role } from './role.js';

export const ROLES_METADATA = 'ledger:roles';
export const PUBLIC_METADATA = 'ledger:public';

/**
 * Marks a route (or controller) as open to keys holding ANY of `roles`; the guard refuses routes
 * with neither this nor {@link Public}. The OpenAPI document marks them with the `bearer` scheme.
 */
export const RequireRole = (...roles: Role[]) =>
  applyDecorators(SetMetadata(ROLES_METADATA, roles), ApiBearerAuth(BEARER_SCHEME));

/** Name of the OpenAPI security scheme of API keys (`Authorization: Bearer olk_…`). */
export const BEARER_SCHEME = 'bearer';

/** Marks a route as needing no key (health, OpenAPI document, metrics scrape if so configured). */
export const Public = () => SetMetadata(PUBLIC_METADATA, true);
