// The span tree of one claim, from an in-memory span exporter in a child process that loads the
// SDK before the ledger (as the --import preload does): the HTTP server span continues the worker's
// traceparent, Fastify's instrumentation names the route, and the claim's PostgreSQL queries are spans of that trace.
// Our own spans nest under the handler: ledger.command → ledger.decide and ledger.append.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';
import { buildSources } from './support/build-sources.js';

interface ExportedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  scope: string;
  attributes: Record<string, unknown>;
}

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const WORKER_SPAN = 'b7ad6b7169203331';

let db: TestDatabase;
let result: { status: number; requestId: string | null; spans: ExportedSpan[] };

beforeAll(async () => {
  db = await createTestDatabase('ledger_obs');
  const output = execFileSync(
    process.execPath,
    [join('test/observability/support/traced-claim.mjs'), buildSources(), `00-${TRACE_ID}-${WORKER_SPAN}-01`],
    {
      env: { ...process.env, NODE_OPTIONS: '', LEDGER_STORE: 'postgres', DATABASE_URL: db.connectionString },
      encoding: 'utf8',
      timeout: 90_000,
    },
  );
  result = JSON.parse(output.trim().split('\n').pop()!);
}, 120_000);

afterAll(() => db?.drop());

describe('spans of one claim', () => {
  it('acquires the claim', () => {
    expect(result.status).toBe(201);
    expect(result.requestId).toBe(TRACE_ID);
  });

  it('has the HTTP server span as a child of the worker span, in the worker trace', () => {
    const server = result.spans.filter((s) => s.scope === '@opentelemetry/instrumentation-http');
    expect(server).toHaveLength(1);
    expect(server[0]).toMatchObject({
      name: 'POST /v1/claims',
      traceId: TRACE_ID,
      parentSpanId: WORKER_SPAN,
    });
    expect(server[0]!.attributes['http.route'] ?? server[0]!.attributes['http.target']).toBeDefined();
  });

  it("has Fastify's request span under it and the route handler's span in that, named for the route template", () => {
    const server = result.spans.find((s) => s.scope === '@opentelemetry/instrumentation-http')!;
    const request = result.spans.find((s) => s.scope === '@fastify/otel' && s.name === 'request');
    expect(request).toMatchObject({ traceId: TRACE_ID, parentSpanId: server.spanId });
    expect(request!.attributes['http.route']).toBe('/v1/claims');
    const handler = result.spans.find(
      (s) => s.scope === '@fastify/otel' && s.attributes['fastify.type'] === 'request-handler',
    );
    expect(handler).toMatchObject({ traceId: TRACE_ID, parentSpanId: request!.spanId });
    expect(handler!.attributes['http.route']).toBe('/v1/claims');
  });

  it('has the PostgreSQL queries of the claim in the same trace, without parameter values', () => {
    const queries = result.spans.filter(
      (s) => s.scope === '@opentelemetry/instrumentation-pg' && s.name.startsWith('pg.query'),
    );
    expect(queries.length).toBeGreaterThan(0);
    for (const q of queries) {
      expect(q.traceId).toBe(TRACE_ID);
      expect(q.attributes['db.system'] ?? q.attributes['db.system.name']).toBe('postgresql');
      expect(Object.keys(q.attributes).some((k) => k.includes('values') || k.includes('parameters'))).toBe(
        false,
      );
    }
    const ids = new Set(result.spans.map((s) => s.spanId));
    for (const q of queries) expect(ids.has(q.parentSpanId!)).toBe(true); // inside the request's tree
  });

  it("has ledger.command with ledger.decide and ledger.append under it, with the claim's attributes", () => {
    const named = (name: string) => result.spans.filter((s) => s.name === name);
    const [command] = named('ledger.command');
    expect(named('ledger.command')).toHaveLength(1);
    expect(command).toMatchObject({ traceId: TRACE_ID });
    expect(command!.attributes).toMatchObject({
      'ledger.tenant': 'acme',
      'ledger.outcome': 'accepted',
      'ledger.wrong_expected_version_retries': 0,
    });
    expect(command!.attributes['ledger.operation_id']).toMatch(/^[0-9a-f-]{36}$/);
    const [decide] = named('ledger.decide');
    const [append] = named('ledger.append');
    expect(decide).toMatchObject({ parentSpanId: command!.spanId });
    expect(append).toMatchObject({ parentSpanId: command!.spanId });
    expect(append!.attributes).toMatchObject({
      'ledger.expected_revision': 'no_stream',
      'ledger.event_count': 1,
    });
    // the store's queries of the append are children of the append span
    const appendQueries = result.spans.filter((s) => s.parentSpanId === append!.spanId);
    expect(appendQueries.length).toBeGreaterThan(0);
  });
});
