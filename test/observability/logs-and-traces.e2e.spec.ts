// A spawned server bundle, as `npm start` and the image run it (stdout not a terminal, tracing
// preload on, PostgreSQL store): every line it
// writes is JSON, no token ever appears in its output, each request has one line with its route
// template, status, duration, key id and trace id, X-Request-Id is echoed, and the OTLP exporter
// ships the request's trace (continuing the worker's traceparent) to the collector. The claim's
// domain event's line is at debug (the request line says it at info), and its stored metadata
// carries the worker's trace context.
import { createServer, type Server } from 'node:http';
import pg from 'pg';
import type { AddressInfo } from 'node:net';
import { generateToken } from '../../src/auth/api-key-token.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';
import { spawnLedger, type SpawnedLedger } from './support/spawn-ledger.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

let db: TestDatabase;
let ledger: SpawnedLedger;
let collector: Server;
const exported: Buffer[] = [];
const admin = generateToken();
let worker: { id: string; token: string };
let claim: Response;
let claimed: { operationId: string };
let lines: Record<string, unknown>[];

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/traces') exported.push(Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  db = await createTestDatabase('ledger_obs');
  ledger = await spawnLedger({
    LEDGER_STORE: 'postgres',
    DATABASE_URL: db.connectionString,
    LEDGER_ADMIN_TOKEN: admin.token,
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
    // No batch is exported on a timer during the run: the spans reach the collector only through
    // the flush on shutdown (which the server bundle once skipped: its own copy of the handle).
    OTEL_BSP_SCHEDULE_DELAY: '600000',
  });
  const created = await fetch(`${ledger.url}/v1/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tenant: 'acme', roles: ['worker'], name: 'worker-1' }),
  });
  expect(created.status).toBe(201);
  const body = (await created.json()) as { id: string; token: string };
  worker = { id: body.id, token: body.token };
  claim = await fetch(`${ledger.url}/v1/claims`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${worker.token}`,
      'content-type': 'application/json',
      traceparent: TRACEPARENT,
      tracestate: 'vendor=abc',
    },
    body: JSON.stringify({
      key: { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'INV-1' },
      payload: { secretish: 'payload-marker-7f3a' },
    }),
  });
  claimed = (await claim.json()) as { operationId: string };
  // A wrong secret for a real key id, and the worker token in a query string.
  const wrong = `olk_${worker.id}_${'x'.repeat(43)}`;
  await fetch(`${ledger.url}/v1/operations`, {
    headers: { authorization: `Bearer ${wrong}`, 'x-request-id': 'req-401' },
  });
  await fetch(`${ledger.url}/health?token=${worker.token}`);
  // Nest's shutdown hooks close the app (flushing spans and logs), then re-raise the signal.
  expect([0, 'SIGTERM']).toContain(await ledger.stop());
  lines = ledger
    .stdout()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}, 120_000);

afterAll(async () => {
  if (ledger && ledger.child.exitCode === null) await ledger.stop();
  await db?.drop();
  await new Promise((r) => collector?.close(r));
});

const requestLine = (route: string, status: number) =>
  lines.find((l) => l.route === route && l.status === status && typeof l.ms === 'number');

describe('logs of a run on a non-terminal stdout', () => {
  it('are JSON lines, stdout and stderr alike', () => {
    for (const line of ledger
      .stdout()
      .split('\n')
      .filter((l) => l.trim() !== ''))
      expect(() => JSON.parse(line)).not.toThrow();
    for (const line of ledger
      .stderr()
      .split('\n')
      .filter((l) => l.trim() !== ''))
      expect(() => JSON.parse(line)).not.toThrow();
    expect(lines.some((l) => String(l.msg).startsWith('listening on http'))).toBe(true);
  });

  it('never contain a token, its secret or a payload', () => {
    const all = ledger.stdout() + ledger.stderr();
    for (const token of [admin.token, worker.token]) {
      expect(all).not.toContain(token);
      expect(all).not.toContain(token.slice(`olk_${'0'.repeat(24)}_`.length));
    }
    expect(all).not.toContain('x'.repeat(43));
    expect(all).not.toContain('payload-marker-7f3a');
  });

  it('have one line per request with method, route template, status, ms, key id and trace id', () => {
    expect(claim.status).toBe(201);
    const line = requestLine('/v1/claims', 201)!;
    expect(line).toMatchObject({
      level: 'info',
      method: 'POST',
      keyId: worker.id,
      traceId: TRACE_ID,
      requestId: TRACE_ID,
      msg: 'POST /v1/claims 201',
    });
    expect(lines.filter((l) => l.route === '/v1/claims')).toHaveLength(1);
    expect(requestLine('unmatched', 401)).toMatchObject({ requestId: 'req-401', path: '/v1/operations' });
    expect(requestLine('/v1/admin/keys', 201)).toMatchObject({ keyId: admin.id });
  });

  it("log a first claim once at info, by its request line: its domain event's line is at debug", () => {
    expect(lines.filter((l) => l.event === 'OperationClaimed')).toHaveLength(0);
    expect(lines.filter((l) => l.operationId === claimed.operationId || l.route === '/v1/claims')).toEqual([
      expect.objectContaining({ level: 'info', msg: 'POST /v1/claims 201', requestId: TRACE_ID }),
    ]);
  });

  it('echo the request id in X-Request-Id', () => {
    expect(claim.headers.get('x-request-id')).toBe(TRACE_ID);
  });
});

describe('event metadata', () => {
  it("carries the worker's trace context: correlation id = trace id, traceparent and tracestate", async () => {
    const client = new pg.Client({ connectionString: db.connectionString });
    await client.connect();
    try {
      const { rows } = await client.query<{ type: string; metadata: Record<string, unknown> }>(
        `select type, metadata from ledger_events where stream_name like 'operation-acme/%'`,
      );
      expect(rows.map((r) => r.type)).toEqual(['OperationClaimed']);
      expect(rows[0]!.metadata).toMatchObject({
        correlationId: TRACE_ID,
        traceparent: TRACEPARENT,
        tracestate: 'vendor=abc',
        keyId: worker.id,
      });
    } finally {
      await client.end();
    }
  });
});

describe('traces', () => {
  it('reach the OTLP collector, continuing the worker trace', () => {
    expect(exported.length).toBeGreaterThan(0);
    expect(exported.some((body) => body.includes(Buffer.from(TRACE_ID, 'hex')))).toBe(true);
    // The server bundle leaves pg to node_modules, where the preload's hooks patch it, and holds
    // Fastify, traced through its diagnostics channel; the ledger's own spans use the one
    // OpenTelemetry API outside the bundle.
    const all = Buffer.concat(exported);
    for (const scope of ['@fastify/otel', '@opentelemetry/instrumentation-pg'])
      expect(all.includes(Buffer.from(scope))).toBe(true);
    expect(all.includes(Buffer.from('ledger.command'))).toBe(true);
  });
});
