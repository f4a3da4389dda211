// Refusals say what to fix (docs/api.md "Problem details") — the content-type header, one message for a
// string fencing token — and 409 in-progress says when to ask again and when the lease ends.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres');
});
afterAll(() => ledger.close());

const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });
const claimBody = (subject: string) => JSON.stringify({ key: key(subject), payload: { n: 1 } });

/** POST /v1/claims with `body` as bytes and exactly the headers given (fetch adds no content-type). */
async function postBytes(body: string, headers: Record<string, string>) {
  const res = await fetch(`${ledger.url}/v1/claims`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ledger.rootToken}`, ...headers },
    body: new TextEncoder().encode(body),
  });
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
}

describe('a body without a JSON content-type', () => {
  it('no content-type header: 415 naming content-type and what to send; nothing claimed', async () => {
    const res = await postBytes(claimBody('CT-1'), {});
    expect(res.status).toBe(415);
    expect(res.type).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('unsupported-media-type');
    expect(res.body.errors).toEqual([
      { field: 'content-type', message: expect.stringContaining('no content-type') },
    ]);
    expect(res.body.detail).toContain('content-type: application/json');
    const claim = await ledger.client.claim(key('CT-1'), { n: 1 });
    expect(claim.status).toBe(201); // the refused request recorded nothing
  });

  it.each([['text/plain;charset=UTF-8'], ['application/x-www-form-urlencoded']])(
    'content-type %s: 415 naming the type sent',
    async (type) => {
      const res = await postBytes(claimBody('CT-2'), { 'content-type': type });
      expect(res.status).toBe(415);
      expect(res.body.errors[0].field).toBe('content-type');
      expect(res.body.detail).toContain(type.split(';')[0]);
      expect(res.body.detail).toContain('application/json');
    },
  );

  it('application/json and +json types are read as before', async () => {
    expect((await postBytes(claimBody('CT-3'), { 'content-type': 'application/json' })).status).toBe(201);
    expect(
      (await postBytes(claimBody('CT-4'), { 'content-type': 'application/merge-patch+json' })).status,
    ).toBe(201);
  });

  it('a request without a body still answers as before (the body is required: 400 body)', async () => {
    const res = await ledger.client.post('/v1/claims');
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'body', message: expect.stringContaining('application/json') },
    ]);
  });
});

describe('fencingToken given as a string', () => {
  it('is answered with one message that says what to send', async () => {
    const res = await ledger.client.op('00000000-0000-5000-8000-000000000000', 'confirm', {
      fencingToken: '1',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toEqual({
      field: 'fencingToken',
      message: expect.stringContaining('JSON number, not the string "1"'),
    });
  });

  it.each([[0], [1.5], [-1], [null]])('fencingToken %j: one message', async (fencingToken) => {
    const res = await ledger.client.op('00000000-0000-5000-8000-000000000000', 'confirm', { fencingToken });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'fencingToken', message: expect.stringContaining('integer >= 1') },
    ]);
  });
});

describe('a value of the wrong JSON type: one message per field, naming what was sent', () => {
  // A new user's `"leaseMs":"30000"` was answered "must not be greater than 3600000; must not be
  // less than 1000; must be an integer number" — the range checks of a string contradict each other.
  it('leaseMs as a string', async () => {
    const res = await ledger.client.post('/v1/claims', { key: key('WT-1'), payload: {}, leaseMs: '30000' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { field: 'leaseMs', message: expect.stringContaining('not the string "30000"') },
    ]);
  });

  it('the key as a string', async () => {
    const res = await ledger.client.post('/v1/claims', { key: 'acme/shop/invoice.create/WT-2', payload: {} });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'key', message: expect.stringContaining('not a string') }]);
  });

  it('a number out of range still names its bound', async () => {
    const res = await ledger.client.post('/v1/claims', { key: key('WT-3'), payload: {}, leaseMs: 10 });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: 'leaseMs', message: 'leaseMs must not be less than 1000' }]);
  });
});

describe('409 in-progress', () => {
  it('asks again after at most 5 s (header and retryAfterMs agree) and gives the lease end', async () => {
    const first = await ledger.client.claim(key('IP-1'), { a: 1 }, { leaseMs: 60_000 });
    ledger.clock.advance(10_000);
    const second = await ledger.client.claim(key('IP-1'), { a: 1 });
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toBe('5');
    expect(second.body).toMatchObject({
      code: 'in-progress',
      retryAfterMs: 5_000,
      leaseExpiresAt: first.body.leaseExpiresAt,
    });
    ledger.clock.advance(48_500);
    const late = await ledger.client.claim(key('IP-1'), { a: 1 });
    expect(late.headers.get('retry-after')).toBe('2');
    expect(late.body.retryAfterMs).toBe(1_500);
  });
});
