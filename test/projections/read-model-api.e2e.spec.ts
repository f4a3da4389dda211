// Read models over HTTP: status view, review queue, conflict report, metrics, reconciliation and
// projector status, each answering with its checkpoint and lag, tenant-scoped and validated.
import { startTestLedger, type TestKey, type TestLedger } from '../support/test-ledger.js';
import type { LedgerClient } from '../support/http-client.js';
import { waitFor } from './support/wait-for.js';

const key = (tenant: string, subject: string, action = 'invoice.create') => ({
  tenant,
  source: 'shopify',
  action,
  subject,
});
const T = 'acme-gmbh';

let ledger: TestLedger;
let c: LedgerClient;
let otherTenant: TestKey;
const ids: Record<string, string> = {};

/** Waits until every read model has applied everything committed. */
async function settled(): Promise<void> {
  await waitFor(async () => {
    const { body } = await c.get('/v1/projections');
    return body.projections.length === 3 && body.projections.every((p: any) => p.lag.events === 0);
  }, 'read models caught up');
}

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  c = ledger.client;
  otherTenant = await ledger.createKey({ tenant: 'globex-ag', roles: ['auditor'] });

  // confirmed, then a replayed duplicate claim
  const a = await c.claim(key(T, 'INV-1'), { n: 1 }, { workerId: 'w1' });
  ids.confirmed = a.body.operationId;
  await c.op(ids.confirmed, 'steps/create/start', { fencingToken: 1 });
  await c.op(ids.confirmed, 'confirm', { fencingToken: 1, destinationRef: 'REC-1' });
  expect((await c.claim(key(T, 'INV-1'), { n: 1 })).status).toBe(200);
  // a payload conflict on it
  expect((await c.claim(key(T, 'INV-1'), { n: 2, extra: true }, { workerId: 'w9' })).status).toBe(422);
  // a duplicate effect: a second, different reference
  expect((await c.op(ids.confirmed, 'confirm', { fencingToken: 1, destinationRef: 'REC-1-B' })).status).toBe(
    409,
  );
  // a final failure
  const f = await c.claim(key(T, 'INV-2', 'crm.sync'), { n: 2 });
  ids.failed = f.body.operationId;
  await c.op(ids.failed, 'fail', {
    fencingToken: 1,
    error: { code: 'rejected', message: 'bad VAT id' },
    retryable: false,
  });
  // an unknown outcome: the lease expires after the external step started
  const u = await c.claim(key(T, 'INV-3'), { n: 3 }, { leaseMs: 1000, workerId: 'w3' });
  ids.unknown = u.body.operationId;
  await c.op(ids.unknown, 'steps/dispatch/start', { fencingToken: 1 });
  ledger.clock.advance(1001);
  expect((await c.claim(key(T, 'INV-3'), { n: 3 })).body.code).toBe('awaiting-recovery');
  // in progress, and an in-progress refusal
  ids.open = (await c.claim(key(T, 'INV-4'), { n: 4 })).body.operationId;
  expect((await c.claim(key(T, 'INV-4'), { n: 4 })).status).toBe(409);
  // another tenant's operation with the same subject
  await c.claim(key('globex-ag', 'INV-1'), { n: 1 });
  await settled();
}, 60_000);
afterAll(() => ledger?.close());

describe('status view', () => {
  it('lists one row per operation of the tenant only, with checkpoint and lag', async () => {
    const r = await c.get(`/v1/tenants/${T}/operations`);
    expect(r.status).toBe(200);
    expect(r.body.items).toHaveLength(4);
    expect(r.body.items.every((i: any) => i.key.tenant === T)).toBe(true);
    expect(r.body.checkpoint).toMatch(/^\d+$/);
    expect(r.body.lag).toEqual({ events: 0, seconds: 0, capped: false });
    const confirmed = r.body.items.find((i: any) => i.operationId === ids.confirmed);
    expect(confirmed).toMatchObject({
      state: 'confirmed',
      destinationRef: 'REC-1',
      duplicateEffects: 1,
      duplicateClaims: 1,
      payloadConflicts: 1,
      lastCompletedStep: null,
    });
  });

  it('filters by state, action, subject prefix and change time, and pages with a cursor', async () => {
    const byState = await c.get(`/v1/tenants/${T}/operations?state=unknown`);
    expect(byState.body.items.map((i: any) => i.operationId)).toEqual([ids.unknown]);
    const byAction = await c.get(`/v1/tenants/${T}/operations?action=crm.sync`);
    expect(byAction.body.items.map((i: any) => i.operationId)).toEqual([ids.failed]);
    expect((await c.get(`/v1/tenants/${T}/operations?subjectPrefix=INV-`)).body.items).toHaveLength(4);
    expect(
      (await c.get(`/v1/tenants/${T}/operations?changedSince=2999-01-01T00:00:00Z`)).body.items,
    ).toHaveLength(0);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await c.get(
        `/v1/tenants/${T}/operations?limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.items.map((i: any) => i.operationId));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(4);
    expect(seen).toHaveLength(4);
  });

  it('refuses bad filters naming the field, and other tenants', async () => {
    const bad = await c.get(`/v1/tenants/${T}/operations?state=done`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['state']);
    expect((await c.get(`/v1/tenants/${T}/operations?cursor=zzz`)).body.errors[0].field).toBe('cursor');
    expect((await c.get(`/v1/tenants/${T}/operations?limit=0`)).body.errors[0].field).toBe('limit');
    expect((await c.get(`/v1/tenants/${T}/operations?changedSince=yesterday`)).body.errors[0].field).toBe(
      'changedSince',
    );
    // forged cursors the store cannot cast: 400 naming cursor on every paged route, never 500
    const forged = (values: string[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
    for (const path of [
      `operations?cursor=${forged(['99999999999999999999'])}`,
      `conflicts?cursor=${forged(['-99999999999999999999'])}`,
      `review-queue?cursor=${forged(['1', '------------------------------------', 'unknown'])}`,
      `metrics?cursor=${forged(['0', 'invoice.create'])}`,
      `reconciliation?action=invoice.create&cursor=${forged(['2026-01-01T00:00:00.000Z', 'x'])}`,
    ]) {
      const refused = await c.get(`/v1/tenants/${T}/${path}`);
      expect([path, refused.status, refused.body.errors?.[0]?.field]).toEqual([path, 400, 'cursor']);
    }
    const foreign = await otherTenant.client.get(`/v1/tenants/${T}/operations`);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('forbidden-tenant');
    expect((await otherTenant.client.get('/v1/tenants/globex-ag/operations')).body.items).toHaveLength(1);
  });
});

describe('review queue', () => {
  it('lists unknown outcomes, final failures and duplicate effects oldest first, with age and details', async () => {
    const r = await c.get(`/v1/tenants/${T}/review-queue`);
    expect(r.body.items.map((i: any) => i.reason)).toEqual([
      'duplicate_effect',
      'final_failure',
      'unknown_outcome',
    ]);
    const since = r.body.items.map((i: any) => Date.parse(i.since));
    expect([...since].sort((a, b) => a - b)).toEqual(since);
    expect(r.body.items.every((i: any) => i.ageMs >= 0)).toBe(true);
    const unknown = r.body.items.find((i: any) => i.reason === 'unknown_outcome');
    expect(unknown.operationId).toBe(ids.unknown);
    expect(unknown.startedSteps).toEqual([
      expect.objectContaining({ step: 'dispatch', providerIdempotencyKey: expect.any(String) }),
    ]);
    expect(unknown.leaseHistory).toEqual([
      expect.objectContaining({ attempt: 1, workerId: 'w3', outcome: 'unknown' }),
    ]);
    expect(r.body.items.find((i: any) => i.reason === 'duplicate_effect').duplicates).toEqual([
      expect.objectContaining({ ref: 'REC-1-B' }),
    ]);
    expect(r.body.summary).toMatchObject({
      unknown_outcome: { count: 1 },
      final_failure: { count: 1 },
      duplicate_effect: { count: 1 },
    });
  });
});

describe('conflict report', () => {
  it('shows both fingerprints, the worker and a field-level diff', async () => {
    const r = await c.get(`/v1/tenants/${T}/conflicts`);
    expect(r.body.items).toHaveLength(1);
    const conflict = r.body.items[0];
    expect(conflict).toMatchObject({ operationId: ids.confirmed, workerId: 'w9' });
    expect(conflict.existingFingerprint).not.toBe(conflict.incomingFingerprint);
    expect(conflict.diff).toEqual([
      { path: '/extra', kind: 'added', incoming: true },
      { path: '/n', kind: 'changed', existing: 1, incoming: 2 },
    ]);
  });
});

describe('duplicate-prevented metrics', () => {
  it('counts per action and bucket, with totals', async () => {
    const r = await c.get(`/v1/tenants/${T}/metrics?bucket=hour`);
    expect(r.body.totals).toMatchObject({
      claims: 4,
      duplicateClaimsPrevented: 3,
      replays: 1,
      inProgressRefusals: 1,
      awaitingRecoveryRefusals: 1,
      payloadConflicts: 1,
      unknownOpened: 1,
      duplicateEffects: 1,
    });
    expect(r.body.byAction['crm.sync']).toMatchObject({ claims: 1 });
    expect(r.body.buckets.length).toBeGreaterThan(0);
    expect((await c.get(`/v1/tenants/${T}/metrics?bucket=week`)).body.errors[0].field).toBe('bucket');
  });

  it('also counts per minute (a fresh install or a short range is more than one bar); the same totals', async () => {
    const hour = await c.get(`/v1/tenants/${T}/metrics?bucket=hour`);
    const minute = await c.get(`/v1/tenants/${T}/metrics?bucket=minute`);
    expect(minute.status).toBe(200);
    expect(minute.body.totals).toEqual(hour.body.totals);
    for (const b of minute.body.buckets) expect(b.bucketStart).toMatch(/:\d\d:00\.000Z$/);
  });
});

describe('reconciliation report', () => {
  it('categorises source operations against destination outcomes, as JSON and CSV', async () => {
    const r = await c.get(`/v1/tenants/${T}/reconciliation?action=invoice.create`);
    expect(r.body.totals).toMatchObject({ sourceOperations: 3, duplicateEffectOperations: 1 });
    expect(r.body.totals.byCategory).toMatchObject({
      confirmed_with_ref: 1,
      unknown: 1,
      in_progress: 1,
      failed: 0,
    });
    const res = await fetch(`${ledger.url}/v1/tenants/${T}/reconciliation?format=csv`, {
      headers: { authorization: `Bearer ${ledger.rootToken}` },
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('x-ledger-checkpoint')).toMatch(/^\d+$/);
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'operationId,source,action,subject,revision,category,state,destinationRef,duplicateEffects,attempts,firstSeen,lastChange',
    );
    expect(lines).toHaveLength(5);
    expect(lines.find((l) => l.startsWith(ids.failed))).toContain(',failed,failed,');
    const range = await c.get(
      `/v1/tenants/${T}/reconciliation?from=2999-01-01T00:00:00Z&to=2000-01-01T00:00:00Z`,
    );
    expect(range.body.errors[0].field).toBe('to');
  });
});

describe('projector status and online rebuild', () => {
  it('shows checkpoint, lag, holder and state; a rebuild swaps in equal tables', async () => {
    const before = await c.get(`/v1/tenants/${T}/operations?limit=500`);
    const status = await c.get('/v1/projections/operations');
    expect(status.body).toMatchObject({ name: 'operations', state: 'live', generation: 1, rebuild: null });
    expect(status.body.holder).toBe(status.body.local.instanceId);
    const started = await c.post('/v1/projections/operations/rebuild');
    expect(started.status).toBe(202);
    expect(started.body.rebuild).toMatchObject({ generation: 2 });
    expect((await otherTenant.client.post('/v1/projections/operations/rebuild')).status).toBe(403);
    // global checkpoints, lastEventAt (which follows every tenant's writes) and the holder's host:pid
    // are for all-tenant keys only
    for (const path of ['/v1/projections', '/v1/projections/operations']) {
      const refused = await otherTenant.client.get(path);
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain('checkpoint');
    }
    expect((await c.post('/v1/projections/nope/rebuild')).status).toBe(404);
    await waitFor(async () => (await c.get('/v1/projections/operations')).body.generation === 2, 'swap');
    const after = await c.get(`/v1/tenants/${T}/operations?limit=500`);
    expect(after.body.items).toEqual(before.body.items);
  });
});

describe('Prometheus /metrics', () => {
  it('exposes read-model counters, projector lag, HTTP and append latency to an all-tenant auditor', async () => {
    const res = await fetch(`${ledger.url}/metrics`, {
      headers: { authorization: `Bearer ${ledger.rootToken}` },
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toMatch(
      /ledger_duplicate_claims_prevented_total\{tenant="acme-gmbh",action="invoice.create"\} 3/,
    );
    expect(text).toMatch(/ledger_payload_conflicts_total\{tenant="acme-gmbh",action="invoice.create"\} 1/);
    expect(text).toMatch(/ledger_projection_lag_events\{read_model="operations"\} 0/);
    expect(text).toMatch(
      /ledger_http_request_duration_seconds_count\{method="POST",route="\/v1\/claims",status="201"\} \d+/,
    );
    expect(text).toMatch(
      /ledger_event_store_append_duration_seconds_count\{operation="append",outcome="ok"\} \d+/,
    );
    expect(
      (await fetch(`${ledger.url}/metrics`, { headers: { authorization: `Bearer ${otherTenant.token}` } }))
        .status,
    ).toBe(403);
    expect((await fetch(`${ledger.url}/metrics`)).status).toBe(401);
  });
});
