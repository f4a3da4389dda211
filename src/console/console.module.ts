import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { findConsoleDirectory } from './console-directory.js';
import { serveConsole } from './console-static.js';
import { MeController } from './me.controller.js';

/**
 * The operator web console (docs/console.md): its built files at `/console` (no key needed: they
 * hold no data) and `GET /v1/me`.
 */
@Module({ controllers: [MeController] })
export class ConsoleModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    serveConsole(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), findConsoleDirectory());
  }
}
