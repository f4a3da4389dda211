// What the review queue and the live feeds show after a mixed run of a worker and its re-runs:
// the worker's own words next to the Unknown reason (REST and SSE), and every change of a status
// row on its feed — the last `operation` event of each row equals the REST row, duplicate claims
// and payload conflicts included.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import type { LedgerClient } from '../support/http-client.js';
import { SseClient, type SseEvent } from './support/sse-client.js';
import { waitFor } from './support/wait-for.js';

const T = 'acme-gmbh';
const key = (subject: string) => ({ tenant: T, source: 'shop', action: 'invoice.sync', subject });
const TIMEOUT_TEXT = 'accounting API: TimeoutError after 1000 ms';

let ledger: TestLedger;
let c: LedgerClient;
let status: SseClient;
let review: SseClient;
const ids: Record<string, string> = {};

const subscribe = (path: string) =>
  new SseClient(`${ledger.url}${path}`, { authorization: `Bearer ${ledger.rootToken}` }).connect();

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  c = ledger.client;
  status = await subscribe(`/v1/tenants/${T}/operations/changes`);
  review = await subscribe(`/v1/tenants/${T}/review-queue/changes`);
  await status.waitFor('ready', 1);
  await review.waitFor('ready', 1);

  // confirmed, then re-run twice (duplicate claims) and once with another payload (conflict)
  ids.confirmed = (await c.claim(key('INV-1'), { n: 1 })).body.operationId;
  await c.op(ids.confirmed, 'confirm', { fencingToken: 1, destinationRef: 'REC-1' });
  expect((await c.claim(key('INV-1'), { n: 1 })).status).toBe(200);
  expect((await c.claim(key('INV-1'), { n: 1 })).status).toBe(200);
  expect((await c.claim(key('INV-1'), { n: 99 })).status).toBe(422);
  // in progress, and a concurrent run refused
  ids.open = (await c.claim(key('INV-2'), { n: 2 })).body.operationId;
  expect((await c.claim(key('INV-2'), { n: 2 })).status).toBe(409);
  // a retryable failure, then the next attempt times out: the worker reports Unknown in its words
  ids.unknown = (await c.claim(key('INV-3'), { n: 3 })).body.operationId;
  await c.op(ids.unknown, 'fail', {
    fencingToken: 1,
    error: { code: 'http_503', message: 'accounting API answered 503 Service Unavailable' },
    retryable: true,
  });
  expect((await c.claim(key('INV-3'), { n: 3 })).status).toBe(201);
  await c.op(ids.unknown, 'steps/post/start', { fencingToken: 2 });
  expect((await c.op(ids.unknown, 'unknown', { fencingToken: 2, reason: TIMEOUT_TEXT })).status).toBe(200);
  expect((await c.claim(key('INV-3'), { n: 3 })).status).toBe(409); // awaiting recovery, audited
  // a final failure
  ids.failed = (await c.claim(key('INV-4'), { n: 4 })).body.operationId;
  await c.op(ids.failed, 'fail', {
    fencingToken: 1,
    error: { code: 'rejected', message: 'bad VAT id' },
    retryable: false,
  });
  // the second re-run of INV-1 is counted into its duplicate window: recorded when that ends
  await waitFor(async () => {
    const { body } = await c.get(`/v1/tenants/${T}/operations?limit=100`);
    return body.items.some((r: any) => r.operationId === ids.confirmed && r.duplicateClaims === 2);
  }, 'duplicate window recorded');
  await waitFor(async () => {
    const { body } = await c.get('/v1/projections');
    return body.projections.every((p: any) => p.lag.events === 0);
  }, 'read models caught up');
}, 60_000);
afterAll(async () => {
  await status?.close();
  await review?.close();
  await ledger?.close();
});

describe('the review queue shows the worker’s words', () => {
  it('REST: an Unknown entry carries the report’s text and the last failure’s error beside unknownReason', async () => {
    const r = await c.get(`/v1/tenants/${T}/review-queue?reason=unknown_outcome`);
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(1);
    expect(r.body.items[0]).toMatchObject({
      operationId: ids.unknown,
      unknownReason: 'reported_timeout',
      unknownDetail: TIMEOUT_TEXT,
      lastError: { code: 'http_503', message: 'accounting API answered 503 Service Unavailable' },
    });
    const failed = (await c.get(`/v1/tenants/${T}/review-queue?reason=final_failure`)).body.items[0];
    expect(failed).toMatchObject({ operationId: ids.failed, error: { message: 'bad VAT id' } });
  });

  it('SSE: the review feed’s entry carries the same words', async () => {
    const added = await waitFor(
      async () =>
        review.of('review').find((e) => e.data.operationId === ids.unknown && e.data.change === 'added'),
      'review event of the unknown operation',
    );
    expect(added.data.items).toEqual([
      expect.objectContaining({
        reason: 'unknown_outcome',
        unknownReason: 'reported_timeout',
        unknownDetail: TIMEOUT_TEXT,
      }),
    ]);
  });

  it('the status row’s `unknown` carries the text too', async () => {
    const r = await c.get(`/v1/tenants/${T}/operations?state=unknown`);
    expect(r.body.items[0].unknown).toMatchObject({ reason: 'reported_timeout', detail: TIMEOUT_TEXT });
  });
});

describe('every change of a status row reaches its feed', () => {
  it('the last SSE event of each row equals the REST row, duplicate claims and payload conflicts included', async () => {
    const rows = (await c.get(`/v1/tenants/${T}/operations?limit=100`)).body.items as any[];
    expect(rows).toHaveLength(4);
    const confirmedRow = rows.find((r) => r.operationId === ids.confirmed);
    expect(confirmedRow).toMatchObject({ duplicateClaims: 2, payloadConflicts: 1 });
    expect(rows.find((r) => r.operationId === ids.open).duplicateClaims).toBe(1);
    const lastOf = (id: string, position: string) =>
      waitFor(async () => {
        const mine = status.of('operation').filter((e: SseEvent) => e.data.operationId === id);
        const last = mine[mine.length - 1];
        return last && last.data.position === position ? last : null;
      }, `the feed to reach position ${position} of ${id}`);
    for (const row of rows) {
      const last = await lastOf(row.operationId, row.position);
      const { event: _type, ...fields } = last.data;
      expect(fields).toEqual(row);
      expect(last.id).toBe(row.position);
    }
  });
});
