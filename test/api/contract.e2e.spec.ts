// The HTTP contract of docs/api.md: routes, status codes, bodies and problem codes.
import { jest } from '@jest/globals';
import { SwaggerModule } from '@nestjs/swagger';
import { v5 as uuidv5 } from 'uuid';
import { OPERATION_ID_NAMESPACE } from '../../src/ledger/index.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
// Counts the OpenAPI document's generations (about 0.3 s of CPU each), calling through.
const createDocument = jest.spyOn(SwaggerModule, 'createDocument');
let documentsBuiltAtStart: number;
beforeAll(async () => {
  ledger = await startTestLedger('postgres', { maxPayloadBytes: 2048, maxBodyBytes: 64 * 1024 });
  documentsBuiltAtStart = createDocument.mock.calls.length;
});
afterAll(() => ledger.close());

const key = (subject: string, revision?: number) => ({
  tenant: 'acme',
  source: 'shop',
  action: 'invoice.create',
  subject,
  ...(revision ? { revision } : {}),
});

describe('claim answers', () => {
  it('201 carries the documented fields; operationId is UUID v5 of the canonical key', async () => {
    const res = await ledger.client.claim(key('K-1'), { a: 1 }, { leaseMs: 10_000, workerId: 'w1' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ state: 'in_progress', attempt: 1, fencingToken: 1 });
    expect(res.body.operationId).toBe(uuidv5('acme/shop/invoice.create/K-1@1', OPERATION_ID_NAMESPACE));
    expect(res.body.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(res.body.leaseExpiresAt) - ledger.clock.now()).toBe(10_000);
  });

  it('revision 2 of a subject is a different operation', async () => {
    const r1 = await ledger.client.claim(key('K-rev'), { a: 1 });
    const r2 = await ledger.client.claim(key('K-rev', 2), { a: 1 });
    expect([r1.status, r2.status]).toEqual([201, 201]);
    expect(r1.body.operationId).not.toBe(r2.body.operationId);
  });

  it('409 in-progress carries Retry-After (the lease left, at most 5 s) and the lease end, and leaves the lease alone', async () => {
    const first = await ledger.client.claim(key('K-2'), { a: 1 }, { leaseMs: 30_000 });
    ledger.clock.advance(10_500);
    const second = await ledger.client.claim(key('K-2'), { a: 1 }, { leaseMs: 1_000 });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('in-progress');
    expect(second.body.type).toMatch(/\/in-progress$/);
    expect(second.headers.get('retry-after')).toBe('5');
    expect(second.body.leaseExpiresAt).toBe(first.body.leaseExpiresAt);
    const status = await ledger.client.status(first.body.operationId);
    expect(status.body.lease.expiresAt).toBe(first.body.leaseExpiresAt);
  });

  it.each([[999], [3_600_001], [1.5], ['1000']])(
    'leaseMs %j is refused with 400 naming leaseMs',
    async (leaseMs) => {
      const res = await ledger.client.claim(key('K-lease'), { a: 1 }, { leaseMs });
      expect(res.status).toBe(400);
      expect(res.body.errors.map((e: any) => e.field)).toContain('leaseMs');
    },
  );
});

describe('worker follow-ups', () => {
  it('provider idempotency key is stable across attempts; release then reclaim', async () => {
    const c = ledger.client;
    const a = await c.claim(key('K-3'), { a: 1 });
    const id = a.body.operationId;
    // release is allowed before any step started
    expect((await c.op(id, 'release', { fencingToken: 1, reason: 'shutdown' })).body.state).toBe('released');
    const b = await c.claim(key('K-3'), { a: 1 });
    expect(b.body).toMatchObject({ attempt: 2, reason: 'after_release' });
    const s2 = await c.op(id, 'steps/charge/start', { fencingToken: 2 });
    expect(s2.status).toBe(200);
    const rel = await c.op(id, 'release', { fencingToken: 2 });
    expect(rel.status).toBe(409);
    expect(rel.body.code).toBe('outcome-uncertain');
    const fin = await c.op(id, 'fail', {
      fencingToken: 2,
      error: { code: 'card_declined', message: 'no' },
      retryable: false,
    });
    expect(fin.status).toBe(200);
    const replay = await c.claim(key('K-3'), { a: 1 });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({
      state: 'failed',
      replayed: true,
      outcome: { error: { code: 'card_declined' }, retryable: false },
    });
    const again = await c.claim(key('K-3b'), { a: 1 });
    const pik1 = (await c.op(again.body.operationId, 'steps/charge/start', { fencingToken: 1 })).body
      .providerIdempotencyKey;
    await c.op(again.body.operationId, 'fail', {
      fencingToken: 1,
      error: { code: 'e', message: 'm' },
      retryable: false,
    });
    expect(pik1).toMatch(/^[0-9a-f-]{36}$/);
    expect(pik1).not.toBe(s2.body.providerIdempotencyKey);
  });

  it('retryable failure before any step lets the next claim start attempt 2 with the same provider key', async () => {
    const c = ledger.client;
    const a = await c.claim(key('K-4'), { a: 1 });
    const id = a.body.operationId;
    expect(
      (await c.op(id, 'fail', { fencingToken: 1, error: { code: 'rate', message: '429' }, retryable: true }))
        .status,
    ).toBe(200);
    const b = await c.claim(key('K-4'), { a: 1 });
    expect(b.body).toMatchObject({ attempt: 2, reason: 'after_retryable_failure' });
    const s = await c.op(id, 'steps/send/start', { fencingToken: 2 });
    const status = await c.status(id);
    expect(status.body.steps[0]).toMatchObject({
      step: 'send',
      providerIdempotencyKey: s.body.providerIdempotencyKey,
    });
    expect(status.body.lastError).toEqual({ code: 'rate', message: '429' });
  });

  it('resolve of an operation that is not unknown is 409 not-unknown; unknown ids are 404', async () => {
    const a = await ledger.client.claim(key('K-5'), { a: 1 });
    const res = await ledger.client.op(a.body.operationId, 'resolve', {
      resolution: 'abandoned',
      reason: 'r',
      actor: 'ops',
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('not-unknown');
    const missing = await ledger.client.status('00000000-0000-5000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not-found');
    expect(
      (await ledger.client.op('00000000-0000-5000-8000-000000000000', 'confirm', { fencingToken: 1 })).status,
    ).toBe(404);
  });

  it('…/steps/{step}/not-performed: a started step whose request never left; then a retryable failure is accepted', async () => {
    const c = ledger.client;
    const id = (await c.claim(key('K-np'), { a: 1 })).body.operationId;
    await c.op(id, 'steps/send/start', { fencingToken: 1 });
    const uncertain = await c.op(id, 'fail', {
      fencingToken: 1,
      error: { code: 'E', message: 'm' },
      retryable: true,
    });
    expect([uncertain.status, uncertain.body.code]).toEqual([409, 'outcome-uncertain']);
    const noReason = await c.op(id, 'steps/send/not-performed', { fencingToken: 1 });
    expect([noReason.status, noReason.body.errors?.[0]?.field]).toEqual([400, 'reason']);
    const stale = await c.op(id, 'steps/send/not-performed', { fencingToken: 2, reason: 'ECONNREFUSED' });
    expect([stale.status, stale.body.code]).toEqual([409, 'stale-token']);
    const marked = await c.op(id, 'steps/send/not-performed', { fencingToken: 1, reason: 'ECONNREFUSED' });
    expect([marked.status, marked.body.state]).toEqual([200, 'in_progress']);
    const failed = await c.op(id, 'fail', {
      fencingToken: 1,
      error: { code: 'E', message: 'm' },
      retryable: true,
    });
    expect([failed.status, failed.body.state]).toEqual([200, 'failed']);
    const status = (await c.status(id)).body;
    expect(status.steps).toEqual([expect.objectContaining({ step: 'send', status: 'not_performed' })]);
    const types = (await c.history(id)).body.events.map((e: any) => e.type);
    expect(types).toEqual(['OperationClaimed', 'StepStarted', 'StepNotPerformed', 'OperationFailed']);
  });

  it('status and history are folded from the streams', async () => {
    const c = ledger.client;
    const a = await c.claim(key('K-6'), { a: 1 }, { workerId: 'w' });
    const id = a.body.operationId;
    await c.op(id, 'steps/s1/start', { fencingToken: 1 });
    await c.op(id, 'steps/s1/complete', { fencingToken: 1, outputs: { x: 1 } });
    await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'D-1', outputs: { total: 3 } });
    const status = await c.status(id);
    expect(status.body).toMatchObject({
      operationId: id,
      key: { ...key('K-6'), revision: 1 },
      state: 'confirmed',
      attempt: 1,
      fingerprint: a.body.fingerprint,
      destinationRef: 'D-1',
      revision: 3,
    });
    const history = await c.history(id);
    expect(history.body.streamName).toBe('operation-acme/shop/invoice.create/K-6@1');
    const events = history.body.events;
    expect(events.map((e: any) => e.type)).toEqual([
      'OperationClaimed',
      'StepStarted',
      'StepCompleted',
      'OperationConfirmed',
    ]);
    expect(events.map((e: any) => e.streamPosition)).toEqual([0, 1, 2, 3]);
    expect(events.every((e: any) => typeof e.globalPosition === 'number' && e.metadata.correlationId)).toBe(
      true,
    );
    const positions = events.map((e: any) => e.globalPosition);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
  });

  it('X-Request-Id becomes the correlation id of the events', async () => {
    const res = await ledger.client.post(
      '/v1/claims',
      { key: key('K-7'), payload: 1 },
      { headers: { 'x-request-id': 'job-42' } },
    );
    const history = await ledger.client.history(res.body.operationId);
    expect(history.body.events[0].metadata.correlationId).toBe('job-42');
  });
});

describe('limits and malformed input: clear 4xx problems, never 500', () => {
  const cases: [string, () => Promise<any>, number, string][] = [
    ['bad JSON', () => ledger.client.post('/v1/claims', undefined, { raw: '{"key": ' }), 400, 'invalid-json'],
    [
      'duplicate member names',
      () =>
        ledger.client.post('/v1/claims', undefined, { raw: '{"key":{"tenant":"a"},"key":{"tenant":"b"}}' }),
      400,
      'invalid-json',
    ],
    [
      'a reserved member name the framework would strip (__proto__)',
      () =>
        ledger.client.post('/v1/claims', undefined, {
          raw: `{"key":${JSON.stringify(key('proto'))},"payload":{"__proto__":{"amount":1}}}`,
        }),
      400,
      'invalid-json',
    ],
    [
      'a reserved member name deep in the payload (constructor)',
      () => ledger.client.claim(key('ctor'), { lines: [{ constructor: 'x' }] }),
      400,
      'invalid-json',
    ],
    [
      'NUL in a query parameter',
      () => ledger.client.get('/v1/tenants/acme/operations?action=%00'),
      400,
      'validation',
    ],
    ['array body', () => ledger.client.post('/v1/claims', [1, 2]), 400, 'validation'],
    ['no body', () => ledger.client.post('/v1/claims'), 400, 'validation'],
    [
      'key a string',
      () => ledger.client.post('/v1/claims', { key: 'acme/x', payload: 1 }),
      400,
      'invalid-key',
    ],
    [
      'key missing parts',
      () => ledger.client.post('/v1/claims', { key: { tenant: 'a' }, payload: 1 }),
      400,
      'invalid-key',
    ],
    [
      'key part a number',
      () => ledger.client.post('/v1/claims', { key: { ...key('x'), subject: 5 }, payload: 1 }),
      400,
      'invalid-key',
    ],
    [
      'revision 0',
      () => ledger.client.post('/v1/claims', { key: { ...key('x'), revision: 0 }, payload: 1 }),
      400,
      'invalid-key',
    ],
    [
      'unknown field',
      () => ledger.client.post('/v1/claims', { key: key('x'), payload: 1, leaseMS: 5 }),
      400,
      'validation',
    ],
    ['missing payload', () => ledger.client.post('/v1/claims', { key: key('x') }), 400, 'validation'],
    [
      'payload over the cap',
      () => ledger.client.claim(key('x'), { blob: 'x'.repeat(4096) }),
      413,
      'payload-too-large',
    ],
    [
      'body over the cap',
      () => ledger.client.claim(key('x'), { blob: 'x'.repeat(100 * 1024) }),
      413,
      'payload-too-large',
    ],
    [
      'deep nesting',
      () =>
        ledger.client.post('/v1/claims', undefined, {
          raw: '{"payload":' + '['.repeat(5000) + ']'.repeat(5000) + '}',
        }),
      400,
      'validation',
    ],
    [
      'batch over 500',
      () => ledger.client.post('/v1/claims/batch', { claims: Array.from({ length: 501 }, () => ({})) }),
      400,
      'validation',
    ],
    ['batch not an array', () => ledger.client.post('/v1/claims/batch', { claims: {} }), 400, 'validation'],
    [
      'operationId not a UUID',
      () => ledger.client.op('nope', 'confirm', { fencingToken: 1 }),
      400,
      'validation',
    ],
    [
      'fencingToken a string',
      () => ledger.client.op('00000000-0000-5000-8000-000000000000', 'confirm', { fencingToken: '1' }),
      400,
      'validation',
    ],
    [
      'bad step name',
      () =>
        ledger.client.op('00000000-0000-5000-8000-000000000000', 'steps/a%20b/start', { fencingToken: 1 }),
      400,
      'validation',
    ],
    [
      'fail without error',
      () =>
        ledger.client.op('00000000-0000-5000-8000-000000000000', 'fail', {
          fencingToken: 1,
          retryable: true,
        }),
      400,
      'validation',
    ],
    [
      'resolve bad resolution',
      () =>
        ledger.client.op('00000000-0000-5000-8000-000000000000', 'resolve', {
          resolution: 'maybe',
          reason: 'r',
          actor: 'a',
        }),
      400,
      'validation',
    ],
    ['unknown route', () => ledger.client.get('/v1/nothing-here'), 404, 'not-found'],
  ];
  it.each(cases)('%s', async (_name, send, status, code) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      status,
      code,
      type: expect.stringMatching(new RegExp(`/${code}$`)),
      title: expect.any(String),
      detail: expect.any(String),
    });
  });

  it('validation problems name the field at fault', async () => {
    const res = await ledger.client.post('/v1/claims', {
      key: { ...key('x'), tenant: '' },
      payload: 1,
      leaseMs: 5,
    });
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(['key.tenant', 'leaseMs']);
  });
});

describe('service endpoints', () => {
  it('serves the OpenAPI document generated from the DTOs at /docs', async () => {
    const doc = await ledger.client.get('/docs-json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/claims',
        '/v1/claims/batch',
        '/v1/operations/{operationId}/confirm',
        '/v1/operations/{operationId}/history',
      ]),
    );
    expect(doc.body.components.schemas.ClaimRequestDto.required).toEqual(expect.arrayContaining(['key']));
    // a command appended to an operation's stream may be refused 503 `contention` (docs/api.md)
    const codes503 = (path: string) =>
      doc.body.paths[path].post.responses['503'].content['application/problem+json'].schema.allOf[1]
        .properties.code.enum;
    expect(codes503('/v1/claims')).toEqual(expect.arrayContaining(['store-unavailable', 'contention']));
    expect(codes503('/v1/operations/{operationId}/confirm')).toContain('contention');
    expect(codes503('/v1/admin/keys')).not.toContain('contention');
    const ui = await fetch(ledger.url + '/docs');
    expect(ui.status).toBe(200);
  });

  it('builds the OpenAPI document on its first request, not at start-up, and only once', async () => {
    expect(documentsBuiltAtStart).toBe(0);
    const [first, second] = await Promise.all([
      ledger.client.get('/docs-json'),
      ledger.client.get('/docs-json'),
    ]);
    expect(await fetch(ledger.url + '/docs')).toMatchObject({ status: 200 });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(createDocument.mock.calls.length).toBe(1);
  });

  it('health answers with the store kind and the optional features the SDK may use', async () => {
    const res = await ledger.client.get('/health');
    expect(res.body).toEqual({
      status: 'ok',
      store: ledger.config.store,
      capabilities: [
        'claim-start-step',
        'confirm-complete-step',
        'claim-request-id',
        'claims-batch',
        'step-not-performed',
      ],
    });
  });
});
