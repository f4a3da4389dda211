// docs/api.md "Recovery and operator workflows": every policy switch over HTTP, each operator action's
// audit trail (actor from the key, reason required, recorded in the stream), recovery evidence,
// lease renewal, and time travel.
import { Destination } from '../support/destination.js';
import { startTestLedger, type TestLedger, type TestKey } from '../support/test-ledger.js';

let ledger: TestLedger;
let operator: TestKey;
let worker: TestKey;
beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  operator = await ledger.createKey({ tenant: 'acme', roles: ['operator', 'auditor'], name: 'ops:maria' });
  worker = await ledger.createKey({ tenant: 'acme', roles: ['worker'], name: 'worker-1' });
});
afterAll(() => ledger.close());

const key = (action: string, subject: string) => ({ tenant: 'acme', source: 'erp', action, subject });
const setPolicy = (action: string, policy: object, reason = 'test policy') =>
  operator.client.request('PUT', `/v1/tenants/acme/policies/${encodeURIComponent(action)}`, {
    policy,
    reason,
  });
const typesOf = async (id: string) =>
  (await ledger.client.history(id)).body.events.map((e: { type: string }) => e.type);

describe('action policies', () => {
  it('are versioned and audited: each change records actor and reason; a stale expectedVersion is 409', async () => {
    const v1 = await setPolicy('invoice.create', { maxLeaseMs: 60_000 }, 'invoices are quick');
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({
      version: 1,
      setBy: 'ops:maria',
      reason: 'invoices are quick',
      policy: { maxLeaseMs: 60_000 },
    });
    const v2 = await operator.client.request('PUT', '/v1/tenants/acme/policies/invoice.create', {
      policy: { maxLeaseMs: 90_000 },
      reason: 'slower ERP',
      expectedVersion: 1,
    });
    expect(v2.body.version).toBe(2);
    const stale = await operator.client.request('PUT', '/v1/tenants/acme/policies/invoice.create', {
      policy: { maxLeaseMs: 40_000 },
      reason: 'oops',
      expectedVersion: 1,
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('policy-version-conflict');
    const history = await operator.client.get('/v1/tenants/acme/policies/invoice.create/history');
    expect(history.body.versions.map((v: any) => [v.version, v.reason])).toEqual([
      [1, 'invoices are quick'],
      [2, 'slower ERP'],
    ]);
  });

  it('refuses invalid policies naming the field, other tenants, and workers', async () => {
    const bad = await setPolicy('x.y', { maxLeaseMs: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].field).toBe('policy.maxLeaseMs');
    const other = await operator.client.request('PUT', '/v1/tenants/globex/policies/x.y', {
      policy: {},
      reason: 'r',
    });
    expect(other.status).toBe(403);
    const asWorker = await worker.client.request('PUT', '/v1/tenants/acme/policies/x.y', {
      policy: {},
      reason: 'r',
    });
    expect(asWorker.status).toBe(403);
  });

  it('refuses expectedVersion null naming the field, and records nothing (found by the every-route fuzz: it was a 500)', async () => {
    const before = await operator.client.get('/v1/tenants/acme/policies/null.version/history');
    const refused = await operator.client.request('PUT', '/v1/tenants/acme/policies/null.version', {
      policy: {},
      reason: 'a',
      expectedVersion: null,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].field).toBe('expectedVersion');
    const after = await operator.client.get('/v1/tenants/acme/policies/null.version/history');
    expect(after.body).toEqual(before.body);
  });

  it('lease bounds: the default applies and a lease above the maximum is 400 naming leaseMs', async () => {
    await setPolicy('lease.test', { defaultLeaseMs: 5_000, maxLeaseMs: 20_000 });
    const a = await worker.client.claim(key('lease.test', 'L-1'), { n: 1 });
    expect(Date.parse(a.body.leaseExpiresAt) - ledger.clock.now()).toBe(5_000);
    const b = await worker.client.claim(key('lease.test', 'L-2'), { n: 1 }, { leaseMs: 30_000 });
    expect(b.status).toBe(400);
    expect(b.body.errors[0].field).toBe('leaseMs');
    const renew = await worker.client.op(a.body.operationId, 'lease/renew', {
      fencingToken: 1,
      leaseMs: 30_000,
    });
    expect(renew.status).toBe(400);
  });

  it('fingerprint exclusions: a redelivery differing only in a trace id replays; other changes conflict', async () => {
    await setPolicy('receipt.send', { fingerprintExcludedFields: ['/meta/traceId'] });
    const first = await worker.client.claim(key('receipt.send', 'R-1'), {
      to: 'a@b.c',
      meta: { traceId: 't1' },
    });
    await worker.client.op(first.body.operationId, 'confirm', { fencingToken: 1, destinationRef: 'MSG-1' });
    const redelivery = await worker.client.claim(key('receipt.send', 'R-1'), {
      to: 'a@b.c',
      meta: { traceId: 't2' },
    });
    expect(redelivery.status).toBe(200);
    const changed = await worker.client.claim(key('receipt.send', 'R-1'), {
      to: 'x@b.c',
      meta: { traceId: 't3' },
    });
    expect(changed.status).toBe(422);
    // The stored payload keeps the trace id exactly as sent.
    const events = (await ledger.client.history(first.body.operationId)).body.events;
    expect(events[0].data.payload).toEqual({ to: 'a@b.c', meta: { traceId: 't1' } });
  });
});

describe('approval before the first claim', () => {
  it('holds the first claim, then the approved claim proceeds; the trail names the operator', async () => {
    await setPolicy('payout.send', { requireApproval: true, replayAllowed: false });
    const destination = new Destination();
    const held = await worker.client.claim(key('payout.send', 'P-1'), { amount: 500 });
    expect(held.status).toBe(409);
    expect(held.body.code).toBe('awaiting-approval');
    const again = await worker.client.claim(key('payout.send', 'P-1'), { amount: 500 });
    expect(again.body.code).toBe('awaiting-approval');
    const noReason = await operator.client.op(held.body.operationId, 'approve', {});
    expect(noReason.status).toBe(400);
    const approved = await operator.client.op(held.body.operationId, 'approve', {
      reason: 'checked with treasury',
    });
    expect(approved.status).toBe(200);
    expect(approved.body.state).toBe('approved');
    const go = await worker.client.claim(key('payout.send', 'P-1'), { amount: 500 });
    expect(go.status).toBe(201);
    expect(go.body.reason).toBe('after_approval');
    destination.create('P-1');
    const events = (await ledger.client.history(held.body.operationId)).body.events;
    const approval = events.find((e: any) => e.type === 'OperationApproved');
    expect(approval.data).toMatchObject({ actor: 'ops:maria', reason: 'checked with treasury' });
    expect(approval.metadata.keyId).toBe(operator.key.id);
    expect(destination.count).toBe(1);
  });

  it('a rejected operation is replayed as rejected and never runs', async () => {
    const held = await worker.client.claim(key('payout.send', 'P-2'), { amount: 9_999 });
    await operator.client.op(held.body.operationId, 'reject', { reason: 'looks like fraud' });
    const later = await worker.client.claim(key('payout.send', 'P-2'), { amount: 9_999 });
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({
      state: 'rejected',
      replayed: true,
      outcome: { approval: { decision: 'rejected' } },
    });
    expect(await typesOf(held.body.operationId)).not.toContain('OperationClaimed');
  });
});

describe('operator replay of final failures', () => {
  async function finalFailure(action: string, subject: string) {
    const c = await worker.client.claim(key(action, subject), { n: 1 });
    await worker.client.op(c.body.operationId, 'fail', {
      fencingToken: 1,
      error: { code: 'x', message: 'y' },
      retryable: false,
    });
    return c.body.operationId as string;
  }

  it('is refused with an explanation where the policy forbids it ("do not replay" actions)', async () => {
    await setPolicy('payment.capture', { replayAllowed: false });
    const id = await finalFailure('payment.capture', 'PAY-1');
    const res = await operator.client.op(id, 'replay', { reason: 'customer asked' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('replay-not-allowed');
    expect(res.body.detail).toContain('payment.capture');
    expect(await typesOf(id)).not.toContain('OperationReplayed');
  });

  it('where allowed: recorded with actor and reason, and the next claim starts attempt 2', async () => {
    const id = await finalFailure('crm.sync', 'C-1');
    const res = await operator.client.op(id, 'replay', { reason: 'CRM fixed the field mapping' });
    expect(res.status).toBe(200);
    const next = await worker.client.claim(key('crm.sync', 'C-1'), { n: 1 });
    expect(next.body).toMatchObject({ attempt: 2 });
    const replayed = (await ledger.client.history(id)).body.events.find(
      (e: any) => e.type === 'OperationReplayed',
    );
    expect(replayed.data).toMatchObject({ actor: 'ops:maria', reason: 'CRM fixed the field mapping' });
  });
});

describe('recovery evidence and duplicate effects', () => {
  async function unknownOperation(action: string, subject: string) {
    const c = await worker.client.claim(key(action, subject), { n: 1 });
    await worker.client.op(c.body.operationId, 'steps/send/start', { fencingToken: 1 });
    await worker.client.op(c.body.operationId, 'unknown', { fencingToken: 1, reason: 'timeout' });
    return c.body.operationId as string;
  }

  it('found → confirmed with the checked fields; not found → released; inconclusive → stays unknown', async () => {
    const found = await unknownOperation('ticket.create', 'T-1');
    const r1 = await worker.client.op(found, 'evidence', {
      verdict: 'found',
      destinationRef: 'TCK-1',
      checkedFields: { externalRef: 'T-1', title: 'Printer on fire' },
    });
    expect(r1.body.state).toBe('confirmed');
    expect((await worker.client.claim(key('ticket.create', 'T-1'), { n: 1 })).body.outcome).toMatchObject({
      destinationRef: 'TCK-1',
      confirmedVia: 'recovery',
    });
    const missing = await unknownOperation('ticket.create', 'T-2');
    expect(
      (
        await worker.client.op(missing, 'evidence', {
          verdict: 'not_found',
          checkedFields: { externalRef: 'T-2' },
        })
      ).body.state,
    ).toBe('released');
    const unsure = await unknownOperation('ticket.create', 'T-3');
    const r3 = await worker.client.op(unsure, 'evidence', {
      verdict: 'inconclusive',
      checkedFields: {},
      note: 'no lookup API',
    });
    expect(r3.body.state).toBe('unknown');
    expect((await worker.client.claim(key('ticket.create', 'T-3'), { n: 1 })).body.code).toBe(
      'awaiting-recovery',
    );
    const noRef = await worker.client.op(unsure, 'evidence', { verdict: 'found', checkedFields: {} });
    expect(noRef.status).toBe(400);
    expect(noRef.body.errors[0].field).toBe('destinationRef');
  });

  it('operator-only recovery refuses worker evidence; operators resolve', async () => {
    await setPolicy('bank.transfer', { recoveryMode: 'operator_only', replayAllowed: false });
    const id = await unknownOperation('bank.transfer', 'B-1');
    const res = await worker.client.op(id, 'evidence', { verdict: 'not_found', checkedFields: {} });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('operator-only-recovery');
  });

  it('a duplicate effect is recorded and then acknowledged by an operator after cleanup', async () => {
    const c = await worker.client.claim(key('invoice.create', 'D-1'), { n: 1 });
    const id = c.body.operationId;
    await worker.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-1' });
    const dup = await worker.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-2' });
    expect(dup.body.code).toBe('duplicate-effect');
    const ack = await operator.client.op(id, 'duplicate-effects/acknowledge', { reason: 'voided INV-2' });
    expect(ack.status).toBe(200);
    const status = await ledger.client.status(id);
    expect(status.body.duplicateEffects).toEqual([
      expect.objectContaining({ ref: 'INV-2', acknowledged: true }),
    ]);
    const again = await operator.client.op(id, 'duplicate-effects/acknowledge', { reason: 'twice' });
    expect(again.body.code).toBe('no-duplicate-effect');
  });
});

describe('lease renewal and time travel', () => {
  it('a heartbeat keeps the lease; a stale token cannot renew', async () => {
    const c = await worker.client.claim(key('export.run', 'E-1'), { n: 1 }, { leaseMs: 10_000 });
    const id = c.body.operationId;
    ledger.clock.advance(8_000);
    const renewed = await worker.client.op(id, 'lease/renew', { fencingToken: 1, leaseMs: 10_000 });
    expect(renewed.status).toBe(200);
    ledger.clock.advance(8_000);
    expect((await worker.client.claim(key('export.run', 'E-1'), { n: 1 })).body.code).toBe('in-progress');
    const stale = await worker.client.op(id, 'lease/renew', { fencingToken: 7, leaseMs: 10_000 });
    expect(stale.body.code).toBe('stale-token');
  });

  it('GET status as of a revision or a time shows the state then', async () => {
    const c = await worker.client.claim(key('export.run', 'E-2'), { n: 1 });
    const id = c.body.operationId;
    await worker.client.op(id, 'steps/s/start', { fencingToken: 1 });
    const between = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await worker.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'X-1' });
    const atZero = await ledger.client.get(`/v1/operations/${id}?atRevision=0`);
    expect(atZero.body).toMatchObject({ state: 'in_progress', revision: 0, steps: [] });
    const atTime = await ledger.client.get(`/v1/operations/${id}?asOf=${encodeURIComponent(between)}`);
    expect(atTime.body).toMatchObject({ state: 'in_progress', revision: 1 });
    const now = await ledger.client.status(id);
    expect(now.body).toMatchObject({ state: 'confirmed', revision: 2 });
    expect((await ledger.client.get(`/v1/operations/${id}?atRevision=x`)).status).toBe(400);
    expect((await ledger.client.get(`/v1/operations/${id}?asOf=yesterday`)).status).toBe(400);
    expect((await ledger.client.get(`/v1/operations/${id}?asOf=2000-01-01T00:00:00Z`)).status).toBe(404);
  });
});
