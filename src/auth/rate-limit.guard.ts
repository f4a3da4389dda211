import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { rateLimited } from './auth-problems.js';
import { KeyRateLimiter } from './key-rate-limiter.js';
import { callerHolderOf } from './request-caller.js';
import { PUBLIC_METADATA } from './require-role.decorator.js';

/**
 * Per-key rate limiting (global guard, after AccessGuard so the caller is known): one budget per
 * API key id across all routes (the client's IP when auth is disabled); health is not limited.
 * Over the limit → 429 `rate-limited` with `Retry-After` (seconds).
 *
 * Not @nestjs/throttler: its 6.x `require`s the ESM-only @nestjs/common 12, and its storage is
 * O(limit) per request where this counter is O(1).
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
