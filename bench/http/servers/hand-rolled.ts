import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post, Res, ValidationPipe } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { IdempotencyTableBaseline } from '../../baseline-idempotency-table.js';
import type { BenchKey, BenchPayload } from '../../workload.js';
import { baselinePlatform, createBaselineApp } from './baseline-platform.js';
import { listenFromEnv } from './listen-from-env.js';

/**
 * What a user writes instead of the ledger (the "hand-rolled" rows): Nest on the ledger's own
 * platform (Fastify; BASELINE_PLATFORM=express for the extra rows on Nest's default), one
 * `idempotency_keys` table on PostgreSQL, `INSERT … ON CONFLICT DO NOTHING` per claim
 * (bench/baseline-idempotency-table.ts), and a second request that stores the response. Bodies
 * are checked the way the Nest documentation teaches (a global `ValidationPipe`, class-validator
 * DTOs), as a user's endpoint would be.
 * Environment: DATABASE_URL (required), BASELINE_POOL_SIZE (default 20, the ledger's default),
 * BASELINE_PLATFORM (fastify | express, default fastify).
 */
const url = process.env['DATABASE_URL'];
if (!url) throw new Error('hand-rolled baseline: DATABASE_URL is required');
const table = await IdempotencyTableBaseline.onPostgres(url, Number(process.env['BASELINE_POOL_SIZE'] ?? 20));

class KeyDto implements BenchKey {
  @IsString() @Length(1, 256) tenant!: string;
  @IsString() @Length(1, 256) source!: string;
  @IsString() @Length(1, 256) action!: string;
  @IsString() @Length(1, 256) subject!: string;
}

class ClaimDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => KeyDto) key!: KeyDto;
  @IsOptional() @IsObject() payload?: BenchPayload;
}

class CompleteDto {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => KeyDto) key!: KeyDto;
  @IsOptional() @IsObject() response?: Record<string, unknown>;
}

/** What the handler needs of the response: `status(code)`, which Fastify's reply and Express's response share. */
interface StatusSetter {
  status(code: number): unknown;
}

@Controller()
class HandRolledController {
  @Get('health')
  health() {
    return { status: 'ok' };
  }

  /** 201 new, 200 replay of the stored response, 409 in progress, 422 other payload. */
  @Post('claims')
  async claim(@Body() body: ClaimDto, @Res({ passthrough: true }) res: StatusSetter) {
    const answer = await table.claim(body.key, body.payload ?? {});
    const status = { new: 201, duplicate: 200, in_progress: 409, conflict: 422 }[answer.kind];
    res.status(status);
    return answer.kind === 'duplicate'
      ? { replayed: true, response: answer.response }
      : { status: answer.kind };
  }

  @Post('claims/complete')
  @HttpCode(200)
  async complete(@Body() body: CompleteDto) {
    await table.complete(body.key, body.response ?? null);
    return { completed: true };
  }
}

@Module({ controllers: [HandRolledController] })
class HandRolledModule {}

const platform = baselinePlatform();
const app = await createBaselineApp(HandRolledModule, platform);
app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
process.once('SIGTERM', () => void table.close());
await listenFromEnv(app, `hand-rolled (${platform})`);
