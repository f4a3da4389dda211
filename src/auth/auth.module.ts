import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccessGuard } from './access.guard.js';
import { AdminKeysController } from './admin/admin-keys.controller.js';
import { ApiKeyService } from './api-key.service.js';
import { KeyRateLimiter } from './key-rate-limiter.js';
import { RateLimitGuard } from './rate-limit.guard.js';
import { SseConnectionLimiter } from './sse-connection-limiter.js';

/**
 * Authentication and authorisation (docs/security.md). Global, so any module can inject
 * ApiKeyService and SseConnectionLimiter. Needs LEDGER_CONFIG, SQL_EXECUTOR and CLOCK.
 */
@Global()
@Module({
  controllers: [AdminKeysController],
  providers: [
    ApiKeyService,
    SseConnectionLimiter,
    KeyRateLimiter,
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [ApiKeyService, SseConnectionLimiter, KeyRateLimiter],
})
export class AuthModule {}
