import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { listenFromEnv } from './listen-from-env.js';

/**
 * The bare endpoint of bare-nest.ts on Nest's Fastify platform, the one the ledger runs on: the
 * floor under the ledger's own targets (the `bare` row stays on express, Nest's default, what a
 * user's own service would run on).
 */
@Controller()
class BareController {
  @Get('health')
  health() {
    return { status: 'ok' };
  }

  @Post('claims')
  @HttpCode(201)
  claim(@Body() body: { key?: unknown }) {
    return { accepted: true, key: body.key ?? null };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

const app = await NestFactory.create(BareModule, new FastifyAdapter(), { logger: ['error', 'warn'] });
await listenFromEnv(app, 'bare-nest-fastify');
