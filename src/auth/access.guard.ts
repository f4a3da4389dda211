import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import { ApiKeyService } from './api-key.service.js';
import { forbidden } from './auth-problems.js';
import { authenticateRequest } from './authenticate-request.js';
import { ANONYMOUS_CALLER } from './caller.js';
import { callerHolderOf } from './request-caller.js';
import { PUBLIC_METADATA, ROLES_METADATA } from './require-role.decorator.js';
import type { Role } from './role.js';

/**
 * The global guard (deny by default): a route marked {@link Public} is open; every other route
 * needs a valid key (401 `unauthenticated`) holding one of the roles of its {@link RequireRole}
 * (403 `forbidden`). A route with neither decorator is refused 403 and logged as a bug.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly logger = new Logger('AccessGuard');

  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return false;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, targets)) return true;
    const req = callerHolderOf(context.switchToHttp().getRequest<object>());
    if (this.config.auth === 'disabled') req.caller ??= ANONYMOUS_CALLER;
    const caller = await authenticateRequest(this.keys, req);
    const roles = this.reflector.getAllAndOverride<Role[] | undefined>(ROLES_METADATA, targets);
    if (!roles || roles.length === 0) {
      this.logger.error(
        `${context.getClass().name}.${context.getHandler().name} has no @RequireRole or @Public`,
      );
      throw forbidden('this route has no access rule');
    }
    if (!roles.some((role) => caller.roles.includes(role))) {
      throw forbidden(`this route needs an API key with one of the roles: ${roles.join(', ')}`);
    }
    return true;
  }
}
