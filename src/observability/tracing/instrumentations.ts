import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { IncomingMessage } from 'node:http';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** Probe and scrape paths: traced, they would be most of the spans and none of the interest. */
const UNTRACED = /^\/(health(\/|$|\?)|metrics($|\?))/;

/**
 * The automatic instrumentations of the ledger: incoming and outgoing HTTP (the server span,
 * continuing a worker's W3C `traceparent`), Fastify's request, hooks and route handler
 * (`@fastify/otel`, Fastify's own: the route template names the server span and is the
 * `http.route` of its `request` span; it hooks into every Fastify instance as it is created,
 * through Fastify's `fastify.initialization` diagnostics channel, so the bundled copy is traced
 * too), and `pg` queries (statement text only — `enhancedDatabaseReporting` off, so
 * parameter values, i.e. payloads, never leave the process).
 *
 * No NestJS instrumentation: `@opentelemetry/instrumentation-nestjs-core` supports
 * `@nestjs/core <12` only (its `supportedVersions`); `ledger-spans.ts` gives the handler →
 * decide → append spans instead.
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
