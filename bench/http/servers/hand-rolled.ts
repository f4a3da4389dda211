import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post, Res, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Type } from 'class-transformer';
import { IsDefined, IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import type { Response } from 'express';
import { IdempotencyTableBaseline } from '../../baseline-idempotency-table.js';
import type { BenchKey, BenchPayload } from '../../workload.js';
import { listenFromEnv } from './listen-from-env.js';

/**
 * What a user writes instead of the ledger (issue 13's "hand-rolled" row): Nest on express, one
 * `idempotency_keys` table on PostgreSQL, `INSERT … ON CONFLICT DO NOTHING` per claim
 * (bench/baseline-idempotency-table.ts), and a second request that stores the response. Bodies
 * are checked the way the Nest documentation teaches (a global `ValidationPipe`, class-validator
 * DTOs), as a user's endpoint would be.
 * Environment: DATABASE_URL (required), BASELINE_POOL_SIZE (default 20, the ledger's default).
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

@Controller()
class HandRolledController {
  @Get('health')
  health() {
    return { status: 'ok' };
  }

  /** 201 new, 200 replay of the stored response, 409 in progress, 422 other payload. */
  @Post('claims')
  async claim(@Body() body: ClaimDto, @Res({ passthrough: true }) res: Response) {
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

const app = await NestFactory.create(HandRolledModule, { logger: ['error', 'warn'] });
app.useGlobalPipes(new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true }));
process.once('SIGTERM', () => void table.close());
await listenFromEnv(app, 'hand-rolled');
