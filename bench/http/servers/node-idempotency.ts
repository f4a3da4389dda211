import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post, UseInterceptors } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { baselinePlatform, createBaselineApp } from './baseline-platform.js';
import { listenFromEnv } from './listen-from-env.js';

/**
 * The @node-idempotency/nestjs baseline: its interceptor on a Nest 12 endpoint on the ledger's own
 * platform (Fastify; BASELINE_PLATFORM=express for the extra rows), storing in the local Redis
 * (REDIS_URL). The package lives in bench/http/baselines/ (installed there
 * with --legacy-peer-deps by the benchmark, since it declares Nest ^9/^10 peers); its
 * `require('@nestjs/common')` finds the root's Nest 12. A request needs an `Idempotency-Key`
 * header; the first one runs the handler, a repeat answers the stored response
 * (`Idempotent-Replayed: true`). Entries expire after REDIS_TTL_MS (default 1 h).
 */
interface NodeIdempotencyNest {
  NodeIdempotencyModule: { forRootAsync(options: unknown): unknown };
  NodeIdempotencyInterceptor: new (...args: never[]) => unknown;
}

const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const baselines = new URL('../../../../bench/http/baselines/package.json', import.meta.url);
const ni = createRequire(baselines)('@node-idempotency/nestjs') as NodeIdempotencyNest;

@Controller()
class IdempotentController {
  @Get('health')
  health() {
    return { status: 'ok' };
  }

  @Post('claims')
  @HttpCode(201)
  @UseInterceptors(ni.NodeIdempotencyInterceptor)
  claim(@Body() body: { key?: unknown }) {
    return { operationId: randomUUID(), state: 'in_progress', key: body.key ?? null };
  }
}

@Module({
  imports: [
    ni.NodeIdempotencyModule.forRootAsync({
      storage: { adapter: 'redis', options: { url: redisUrl } },
      enforceIdempotency: true,
      cacheKeyPrefix: 'ledger-bench',
      cacheTTLMS: Number(process.env['REDIS_TTL_MS'] ?? 3_600_000),
    }) as never,
  ],
  controllers: [IdempotentController],
})
class IdempotentModule {}

const platform = baselinePlatform();
const app = await createBaselineApp(IdempotentModule, platform);
await listenFromEnv(app, `node-idempotency (${platform})`);
