import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { listenFromEnv } from './listen-from-env.js';

/** The cheapest Nest 12 express endpoint that takes a JSON body: the floor under every target. */
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

const app = await NestFactory.create(BareModule, { logger: ['error', 'warn'] });
await listenFromEnv(app, 'bare-nest');
