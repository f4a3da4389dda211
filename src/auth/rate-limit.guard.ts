import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { rateLimited } from './auth-problems.js';
import { KeyRateLimiter } from './key-rate-limiter.js';
import { callerHolderOf } from './request-caller.js';
import { PUBLIC_METADATA } from './require-role.decorator.js';

/**
 * Per-key rate limiting (global guard, registered after AccessGuard so the caller is known): one
 * budget per API key id across all routes (the client's IP for the anonymous caller when auth is
 * disabled). Public routes (health) are not limited. Over the limit → 429 `rate-limited` with
 * `Retry-After` (seconds). Limits: LedgerConfig.rateLimitPerKey per rateLimitWindowMs.
 *
 * Not built on @nestjs/throttler: its 6.x release is CommonJS and `require`s the ESM-only
 * @nestjs/common 12, which Jest cannot load before Node 24.9; and its storage re-scans every hit
 * of a key per request (O(limit)), where this counter is O(1).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: KeyRateLimiter,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.limiter.enabled || context.getType() !== 'http') return true;
    if (
      this.reflector.getAllAndOverride<boolean>(PUBLIC_METADATA, [context.getHandler(), context.getClass()])
    ) {
      return true;
    }
    const req = context.switchToHttp().getRequest<{ ip?: string }>();
    const keyId = callerHolderOf(req).caller?.keyId;
    const tracker = keyId && keyId !== 'anonymous' ? `key:${keyId}` : `ip:${req.ip ?? 'unknown'}`;
    const decision = this.limiter.hit(tracker);
    if (!decision.allowed) {
      throw rateLimited(
        'this API key made too many requests; retry after Retry-After seconds',
        decision.retryAfterS,
      );
    }
    return true;
  }
}
