/* global fetch */
// Child process of tracing.e2e.spec.ts: starts the OpenTelemetry SDK with an in-memory exporter
// BEFORE the ledger's modules load (the order the `--import` preload gives production), starts the
// built ledger on PostgreSQL (DATABASE_URL) on a random loopback port, sends one claim with the
// W3C `traceparent` of argv[3], and prints the finished spans as one JSON line. argv[2] = the build.
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [build, traceparent] = process.argv.slice(2);
const at = (path) => pathToFileURL(join(build, path)).href;

register('@opentelemetry/instrumentation/hook.mjs', pathToFileURL(join(process.cwd(), 'package.json')));
const { InMemorySpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
const { startTracing } = await import(at('src/observability/tracing/start-tracing.js'));
// The app's shutdown stops the SDK, which empties an InMemorySpanExporter: keep our own copy.
const finished = [];
class KeepingExporter extends InMemorySpanExporter {
  export(spans, done) {
    finished.push(...spans);
    super.export(spans, done);
  }
}
const exporter = new KeepingExporter();
const tracing = startTracing(process.env, { spanProcessors: [new SimpleSpanProcessor(exporter)] });

const { loadConfig } = await import(at('src/config/ledger-config.js'));
const { createLedgerApp } = await import(at('src/create-ledger-app.js'));
const { createAppApiKey } = await import(at('src/auth/create-app-api-key.js'));
const config = loadConfig();
const app = await createLedgerApp(config, { logger: false });
const worker = await createAppApiKey(app, { tenant: 'acme', roles: ['worker'], name: 'traced-worker' });
await app.listen(0, '127.0.0.1');
const { port } = app.getHttpServer().address();
const answer = await fetch(`http://127.0.0.1:${port}/v1/claims`, {
  method: 'POST',
  headers: {
    authorization: `Bearer ${worker.token}`,
    'content-type': 'application/json',
    traceparent,
  },
  body: JSON.stringify({
    key: { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order-1', revision: 1 },
    payload: { amount: 1 },
  }),
});
const body = await answer.json();
await app.close();
const spans = finished.map((s) => ({
  name: s.name,
  traceId: s.spanContext().traceId,
  spanId: s.spanContext().spanId,
  parentSpanId: s.parentSpanContext?.spanId ?? null,
  scope: s.instrumentationScope.name,
  attributes: s.attributes,
}));
await tracing.shutdown();
process.stdout.write(
  JSON.stringify({ status: answer.status, requestId: answer.headers.get('x-request-id'), body, spans }) +
    '\n',
);
