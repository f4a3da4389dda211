import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { findConsoleDirectory } from './console-directory.js';
import { serveConsole } from './console-static.js';
import { MeController } from './me.controller.js';

/**
 * The operator web console (packages/console, docs/console.md): serves its built files at
 * `/console` with a strict Content-Security-Policy (no key needed: the files hold no data; the
 * page asks for an API key and calls `/v1` with it), and `GET /v1/me` for the page to learn
 * the key's tenant and roles. The files are served by a Fastify plugin registered in
 * `onModuleInit` (Fastify loads it when the application starts listening).
 */
@Module({ controllers: [MeController] })
export class ConsoleModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    serveConsole(this.adapterHost.httpAdapter.getInstance<FastifyInstance>(), findConsoleDirectory());
  }
}
