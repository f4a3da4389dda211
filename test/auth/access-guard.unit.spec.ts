// Deny by default: a route without @RequireRole/@Public is refused, whatever the key.
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessGuard } from '../../src/auth/access.guard.js';
import type { ApiKeyService } from '../../src/auth/api-key.service.js';
import { ROLES } from '../../src/auth/role.js';
import { Public, RequireRole } from '../../src/auth/require-role.decorator.js';
import { ProblemException } from '../../src/common/problem.exception.js';
import { DEFAULT_CONFIG } from '../../src/config/ledger-config.js';

class Routes {
  undecorated() {}
  @RequireRole('operator') operatorOnly() {}
  @Public() open() {}
}

const keys = {
  authenticate: async (token: string) =>
    token === 'olk_good' ? { keyId: 'k', name: 'n', tenant: '*', roles: [...ROLES] } : null,
} as unknown as ApiKeyService;

function context(handler: () => void, authorization?: string): ExecutionContext {
  const req = { headers: authorization ? { authorization } : {} };
  return {
    getType: () => 'http',
    getHandler: () => handler,
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => req }),
  } as unknown as ExecutionContext;
}

async function outcome(p: Promise<boolean>): Promise<number | boolean> {
  try {
    return await p;
  } catch (err) {
    return (err as ProblemException).problem.status;
  }
}

describe('AccessGuard', () => {
  const guard = new AccessGuard(new Reflector(), keys, DEFAULT_CONFIG);
  const r = Routes.prototype;

  it('refuses a route with neither @RequireRole nor @Public, even for an all-role * key (403)', async () => {
    expect(await outcome(guard.canActivate(context(r.undecorated, 'Bearer olk_good')))).toBe(403);
    expect(await outcome(guard.canActivate(context(r.undecorated)))).toBe(401);
  });

  it('admits public routes without a key, and role routes with a key holding the role', async () => {
    expect(await outcome(guard.canActivate(context(r.open)))).toBe(true);
    expect(await outcome(guard.canActivate(context(r.operatorOnly, 'Bearer olk_good')))).toBe(true);
    expect(await outcome(guard.canActivate(context(r.operatorOnly, 'Bearer olk_bad')))).toBe(401);
  });
});
