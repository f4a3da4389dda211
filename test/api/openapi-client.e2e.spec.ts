// /docs-json is a complete description (docs/api.md "Health, metrics and OpenAPI"): a client generated from it with
// openapi-typescript types every answer, and a worker written against those types compiles.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

type Schema = {
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  [k: string]: unknown;
};
type Operation = {
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  requestBody?: { content?: Record<string, unknown> };
  security?: Record<string, string[]>[];
};
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const here = dirname(fileURLToPath(import.meta.url));
const key = { tenant: 'acme', source: 'shop', action: 'invoice.create' };
let ledger: TestLedger;
let doc: Doc;

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  const res = await fetch(ledger.url + '/docs-json');
  doc = (await res.json()) as Doc;
});
afterAll(() => ledger.close());

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, path, op })),
  );

/** The schema `s` names, with `allOf` members merged (one level, as the document uses them). */
function resolve(s: Schema): Schema {
  if (s.$ref) return resolve(doc.components.schemas[s.$ref.split('/').pop()!]!);
  if (!s.allOf) return s;
  const parts = s.allOf.map(resolve);
  return {
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
    required: parts.flatMap((p) => p.required ?? []),
  };
}

const answerSchema = (route: string, status: number, type = 'application/json') => {
  const [method, path] = route.split(' ');
  return resolve(doc.paths[path!]![method!.toLowerCase()]!.responses[status]!.content![type]!.schema!);
};

/** The top-level members of a real answer agree with its schema: nothing undocumented, nothing required missing. */
function expectMatches(body: Record<string, unknown>, schema: Schema): void {
  expect(Object.keys(body).filter((k) => !(k in (schema.properties ?? {})))).toEqual([]);
  expect((schema.required ?? []).filter((k) => !(k in body))).toEqual([]);
}

describe('generated TypeScript client', () => {
  it('types the answers, and a worker written against them type-checks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-openapi-'));
    try {
      const source = astToString(await openapiTS(doc as never));
      writeFileSync(join(dir, 'api.ts'), source);
      writeFileSync(
        join(dir, 'worker.ts'),
        readFileSync(join(here, 'openapi/typed-worker.fixture.txt'), 'utf8'),
      );
      const program = ts.createProgram([join(dir, 'worker.ts')], {
        strict: true,
        noEmit: true,
        noUnusedLocals: false,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ES2022,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: [],
        // TypeScript's own lib files (lib.dom.d.ts alone is 1 MB) need no checking here: the
        // generated api.ts and the worker are still checked in full.
        skipLibCheck: true,
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every route is described', () => {
  it('has at least one 2xx answer with a schema (an event stream for SSE routes)', () => {
    const missing = operations().filter(({ op }) => {
      const ok = Object.entries(op.responses).filter(([s]) => s.startsWith('2'));
      return !ok.some(([s, r]) => s === '204' || Object.values(r.content ?? {}).some((c) => c.schema));
    });
    expect(missing.map((m) => m.route)).toEqual([]);
    const sse = operations().filter(({ path }) => path.endsWith('/changes'));
    expect(sse.length).toBe(4);
    for (const { op } of sse) expect(Object.keys(op.responses[200]!.content!)).toEqual(['text/event-stream']);
  });

  it('lists problem answers as problem+json with their codes, 400 wherever a body is read', () => {
    for (const { route, op } of operations()) {
      for (const [status, r] of Object.entries(op.responses).filter(([s]) => Number(s) >= 400)) {
        const codes = resolve(r.content!['application/problem+json']!.schema!).properties!.code!.enum;
        expect([route, status, Array.isArray(codes) && codes.length > 0]).toEqual([route, status, true]);
      }
      if (op.requestBody)
        expect([route, Object.keys(op.responses)]).toEqual([route, expect.arrayContaining(['400'])]);
    }
    const claim409 = answerSchema('POST /v1/claims', 409, 'application/problem+json');
    expect(claim409.properties!.code!.enum).toEqual(
      expect.arrayContaining(['in-progress', 'awaiting-recovery', 'awaiting-approval', 'superseded']),
    );
  });

  it('applies the bearer scheme to every route that needs a key, and to no public one', () => {
    for (const { route, path, op } of operations()) {
      const secured = path.startsWith('/v1/') || path === '/metrics';
      expect([route, op.security ?? []]).toEqual([route, secured ? [{ bearer: [] }] : []]);
    }
  });

  it('documents the claim answers the code returns, field for field', async () => {
    const acquired = answerSchema('POST /v1/claims', 201);
    expect(acquired.required).toEqual(
      expect.arrayContaining([
        'operationId',
        'state',
        'attempt',
        'fencingToken',
        'leaseExpiresAt',
        'fingerprint',
      ]),
    );
    expect(Object.keys(acquired.properties!)).toEqual(
      expect.arrayContaining(['reason', 'completedSteps', 'startedStep']),
    );
    const request = resolve(doc.components.schemas.ClaimRequestDto!);
    expect(request.required).not.toContain('leaseMs');
    expect(request.properties!.payload!.oneOf).toBeDefined();

    const first = await ledger.client.post('/v1/claims', {
      key: { ...key, subject: 'order:1' },
      payload: { amount: 1 },
      startStep: 'create-invoice',
    });
    expect(first.status).toBe(201);
    expectMatches(first.body, acquired);
    const busy = await ledger.client.post('/v1/claims', {
      key: { ...key, subject: 'order:1' },
      payload: { amount: 1 },
    });
    expect(busy.status).toBe(409);
    expectMatches(busy.body, {
      properties: {
        ...answerSchema('POST /v1/claims', 409, 'application/problem+json').properties,
        operationId: {},
        state: {},
        retryAfterMs: {},
        leaseExpiresAt: {},
      },
    });
    const confirm = await ledger.client.post(`/v1/operations/${first.body.operationId}/confirm`, {
      fencingToken: first.body.fencingToken,
      destinationRef: 'INV-1',
      completeStep: { name: 'create-invoice' },
    });
    expect(confirm.status).toBe(200);
    expectMatches(confirm.body, answerSchema('POST /v1/operations/{operationId}/confirm', 200));
    const replay = await ledger.client.post('/v1/claims', {
      key: { ...key, subject: 'order:1' },
      payload: { amount: 1 },
    });
    expect(replay.status).toBe(200);
    expectMatches(replay.body, answerSchema('POST /v1/claims', 200));
    expectMatches(replay.body.outcome, resolve(answerSchema('POST /v1/claims', 200).properties!.outcome!));
    const status = await ledger.client.get(`/v1/operations/${first.body.operationId}`);
    expectMatches(status.body, answerSchema('GET /v1/operations/{operationId}', 200));
    const history = await ledger.client.get(`/v1/operations/${first.body.operationId}/history`);
    expectMatches(history.body, answerSchema('GET /v1/operations/{operationId}/history', 200));
  });
});
