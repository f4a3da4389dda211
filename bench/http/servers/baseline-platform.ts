import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

/** The HTTP platform a baseline runs on: the ledger's own (Fastify) unless told otherwise. */
export type BaselinePlatform = 'fastify' | 'express';

/**
 * BASELINE_PLATFORM from the environment: `fastify` (default, the platform the ledger runs on, so
 * the baselines are what a user who cares about throughput would write) or `express` (Nest's
 * default, kept as extra rows). @throws Error for any other value.
 */
export function baselinePlatform(env: NodeJS.ProcessEnv = process.env): BaselinePlatform {
  const raw = env['BASELINE_PLATFORM'] ?? 'fastify';
  if (raw === 'fastify' || raw === 'express') return raw;
  throw new Error(`BASELINE_PLATFORM must be fastify or express, got "${raw}"`);
}

/**
 * `NestFactory.create(module)` on `platform`, logging warnings and errors only (as the ledger's
 * benchmark configuration does not log per request either).
 */
export function createBaselineApp(module: object, platform: BaselinePlatform): Promise<INestApplication> {
  const options = { logger: ['error', 'warn'] as ('error' | 'warn')[] };
  return platform === 'fastify'
    ? NestFactory.create(module, new FastifyAdapter(), options)
    : NestFactory.create(module, options);
}
