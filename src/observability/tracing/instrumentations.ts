import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { IncomingMessage } from 'node:http';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** Probe and scrape paths: traced, they would be most of the spans and none of the interest. */
const UNTRACED = /^\/(health(\/|$|\?)|metrics($|\?))/;

/**
 * The automatic instrumentations: HTTP, Fastify (`@fastify/otel`, through Fastify's diagnostics
 * channel, so the bundled copy is traced too) and `pg` (statement text only: parameter values are
 * payloads). No NestJS instrumentation: it supports `@nestjs/core <12` only.
 */
export function ledgerInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req: IncomingMessage) => UNTRACED.test(req.url ?? ''),
    }),
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      ignorePaths: (route) => UNTRACED.test(route.url),
    }),
    new PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
  ];
}
