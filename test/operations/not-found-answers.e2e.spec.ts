// The 404 of an operation id is one answer on every route of one operation: the same status,
// media type, headers and body bytes for an id no claim created and for another tenant's
// operation (no existence oracle across tenants, docs/security.md), whichever layer decides it.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
let acme: string;
beforeAll(async () => {
  ledger = await startTestLedger();
  const claim = await ledger.client.claim(
    { tenant: 'globex', source: 'shop', action: 'invoice.create', subject: 'NF-1' },
    { n: 1 },
  );
  expect(claim.status).toBe(201);
  otherTenantId = claim.body.operationId;
  acme = (await ledger.createKey({ tenant: 'acme', roles: ['worker', 'operator', 'auditor'] })).token;
});
afterAll(() => ledger.close());

let otherTenantId: string;
const UNKNOWN_ID = '6f1c0d1e-3b7a-5c2d-9e4f-0a1b2c3d4e5f';

/** Every route addressed by operation id, with a body it accepts. */
const ROUTES: readonly [string, 'GET' | 'POST', string, unknown?][] = [
  ['status', 'GET', ''],
  ['history', 'GET', '/history'],
  ['status as of a revision', 'GET', '?atRevision=0'],
  ['step start', 'POST', '/steps/charge/start', { fencingToken: 1 }],
  ['step complete', 'POST', '/steps/charge/complete', { fencingToken: 1 }],
  ['step not performed', 'POST', '/steps/charge/not-performed', { fencingToken: 1, reason: 'never sent' }],
  ['confirm', 'POST', '/confirm', { fencingToken: 1, destinationRef: 'INV-1' }],
  ['fail', 'POST', '/fail', { fencingToken: 1, error: { code: 'E', message: 'm' }, retryable: true }],
  ['release', 'POST', '/release', { fencingToken: 1 }],
  ['unknown', 'POST', '/unknown', { fencingToken: 1, reason: 'timeout' }],
  ['resolve', 'POST', '/resolve', { resolution: 'abandoned', reason: 'gone' }],
  ['reference', 'POST', '/reference', { destinationRef: 'INV-1', reason: 'found it' }],
  ['approve', 'POST', '/approve', { reason: 'ok' }],
  ['reject', 'POST', '/reject', { reason: 'no' }],
  ['replay', 'POST', '/replay', { reason: 'again' }],
  ['acknowledge', 'POST', '/duplicate-effects/acknowledge', { reason: 'cleaned' }],
  ['evidence', 'POST', '/evidence', { verdict: 'not_found', checkedFields: { a: 1 } }],
  ['lease renew', 'POST', '/lease/renew', { fencingToken: 1, leaseMs: 30_000 }],
];

/** The raw answer: status, the headers that do not vary per request, and the body's bytes. */
async function send(method: string, path: string, body: unknown) {
  const res = await fetch(`${ledger.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${acme}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const headers = Object.fromEntries(
    [...res.headers].filter(
      ([name]) => !['date', 'x-request-id', 'ratelimit', 'ratelimit-policy'].includes(name),
    ),
  );
  return { status: res.status, headers, body: await res.text() };
}

const notFound = (id: string) => ({
  status: 404,
  headers: {
    connection: 'keep-alive',
    'content-length': String(Buffer.byteLength(notFoundBody(id))),
    'content-type': 'application/problem+json; charset=utf-8',
    'keep-alive': 'timeout=60',
  },
  body: notFoundBody(id),
});
const notFoundBody = (id: string) =>
  JSON.stringify({
    type: 'https://operation-ledger.dev/problems/not-found',
    title: 'Not found',
    status: 404,
    detail: `no operation ${id}`,
    code: 'not-found',
  });

describe.each(ROUTES)('%s', (_name, method, suffix, body) => {
  it('an id no claim created: 404 not-found', async () => {
    const res = await send(method, `/v1/operations/${UNKNOWN_ID}${suffix}`, body);
    expect(res).toEqual(notFound(UNKNOWN_ID));
  });

  it("another tenant's operation: the same 404", async () => {
    const res = await send(method, `/v1/operations/${otherTenantId}${suffix}`, body);
    expect(res).toEqual(notFound(otherTenantId));
  });
});

it('the status of an operation as of a time before its claim: the same 404', async () => {
  const claim = await ledger.client.claim(
    { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'NF-2' },
    { n: 1 },
  );
  const id: string = claim.body.operationId;
  const res = await send('GET', `/v1/operations/${id}?asOf=2000-01-01T00:00:00Z`, undefined);
  expect(res).toEqual(notFound(id));
  expect((await send('GET', `/v1/operations/${id}`, undefined)).status).toBe(200);
});
