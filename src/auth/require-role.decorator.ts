import { SetMetadata } from '@nestjs/common';
import type { Role } from './role.js';

export const ROLES_METADATA = 'ledger:roles';
export const PUBLIC_METADATA = 'ledger:public';

/**
 * Marks a route (or controller) as open to keys holding ANY of `roles`. Every route must carry
 * either this or {@link Public}; the guard refuses routes with neither (deny by default).
 */
export const RequireRole = (...roles: Role[]) => SetMetadata(ROLES_METADATA, roles);

/** Marks a route as needing no key (health, OpenAPI document, metrics scrape if so configured). */
export const Public = () => SetMetadata(PUBLIC_METADATA, true);
