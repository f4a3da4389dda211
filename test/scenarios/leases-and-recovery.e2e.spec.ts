// Core scenarios C7 (zombie worker), C8 (lease expires after the external call started),
// C9 (timeout where the destination succeeded). Time moves on the ledger's own (fake) clock.
import { Destination } from '../support/destination.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
});
afterAll(() => ledger.close());

const key = (subject: string) => ({ tenant: 'acme', source: 'crm', action: 'courier.dispatch', subject });
const LEASE = 5_000;

describe('C7 zombie worker', () => {
  it('refuses every late command of the stalled first attempt; one destination record', async () => {
    const c = ledger.client;
    const destination = new Destination();
    const a = await c.claim(key('C7'), { parcel: 1 }, { leaseMs: LEASE, workerId: 'A' });
    expect(a.status).toBe(201);
    const id = a.body.operationId;
    expect((await c.op(id, 'steps/validate/start', { fencingToken: 1 })).status).toBe(200);
    expect(
      (await c.op(id, 'steps/validate/complete', { fencingToken: 1, outputs: { ok: true } })).status,
    ).toBe(200);

    ledger.clock.advance(LEASE + 1);
    const b = await c.claim(key('C7'), { parcel: 1 }, { leaseMs: LEASE, workerId: 'B' });
    expect(b.status).toBe(201);
    expect(b.body).toMatchObject({ attempt: 2, fencingToken: 2, reason: 'after_lease_expiry' });
    const step = await c.op(id, 'steps/dispatch/start', { fencingToken: 2 });
    const ref = destination.create('C7', step.body.providerIdempotencyKey);
    expect((await c.op(id, 'confirm', { fencingToken: 2, destinationRef: ref })).status).toBe(200);

    // The zombie wakes up.
    const zStart = await c.op(id, 'steps/dispatch/start', { fencingToken: 1 });
    const zConfirm = await c.op(id, 'confirm', { fencingToken: 1 });
    const zFail = await c.op(id, 'fail', {
      fencingToken: 1,
      error: { code: 'x', message: 'y' },
      retryable: true,
    });
    expect([zStart.status, zConfirm.status, zFail.status]).toEqual([409, 409, 409]);
    expect([zStart.body.code, zConfirm.body.code, zFail.body.code]).toEqual([
      'stale-token',
      'stale-token',
      'stale-token',
    ]);
    expect(destination.count).toBe(1);

    const events = (await c.history(id)).body.events;
    const claims = events.filter((e: any) => e.type === 'OperationClaimed');
    expect(claims.map((e: any) => [e.data.attempt, e.data.workerId])).toEqual([
      [1, 'A'],
      [2, 'B'],
    ]);
    expect(events.filter((e: any) => e.type === 'OperationConfirmed')).toHaveLength(1);
  });
});

describe('C8 lease expires after the external call started', () => {
  it('answers awaiting-recovery, makes no second call, and takes the frozen worker late confirm as evidence', async () => {
    const c = ledger.client;
    const destination = new Destination();
    const a = await c.claim(key('C8'), { parcel: 2 }, { leaseMs: LEASE });
    const id = a.body.operationId;
    const started = await c.op(id, 'steps/dispatch/start', { fencingToken: 1 });
    const ref = destination.create('C8', started.body.providerIdempotencyKey);
    // The worker freezes here.
    ledger.clock.advance(LEASE + 1);

    const second = await c.claim(key('C8'), { parcel: 2 }, { leaseMs: LEASE });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('awaiting-recovery');
    expect(destination.count).toBe(1);
    expect((await c.status(id)).body).toMatchObject({
      state: 'unknown',
      unknown: { reason: 'lease_expired' },
    });

    const resolved = await c.op(id, 'resolve', {
      resolution: 'confirmed',
      destinationRef: ref,
      reason: 'found by external reference',
      actor: 'ops:eva',
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.state).toBe('confirmed');

    const late = await c.op(id, 'confirm', { fencingToken: 1, destinationRef: ref });
    expect(late.status).toBe(200);
    expect(late.body.alreadyRecorded).toBe(true);
    const lateOther = await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'REC-999' });
    expect(lateOther.status).toBe(409);
    expect(lateOther.body.code).toBe('duplicate-effect');

    const replay = await c.claim(key('C8'), { parcel: 2 });
    expect(replay.status).toBe(200);
    expect(replay.body.outcome.destinationRef).toBe(ref);
    expect(destination.count).toBe(1);
    const types = (await c.history(id)).body.events.map((e: any) => e.type);
    expect(types.filter((t: string) => t !== 'DuplicateClaimPrevented')).toEqual([
      'OperationClaimed',
      'StepStarted',
      'OutcomeUnknown',
      'OperationResolved',
      'DuplicateEffectDetected',
    ]);
    expect(types).toContain('DuplicateEffectDetected');
  });

  it('control: a worker that froze before starting the step is safely reclaimed', async () => {
    const c = ledger.client;
    const a = await c.claim(key('C8-control'), { parcel: 3 }, { leaseMs: LEASE });
    expect(a.status).toBe(201);
    ledger.clock.advance(LEASE + 1);
    const b = await c.claim(key('C8-control'), { parcel: 3 }, { leaseMs: LEASE });
    expect(b.status).toBe(201);
    expect(b.body.attempt).toBe(2);
  });
});

describe('C9 timeout where the destination succeeded', () => {
  it('reports unknown, refuses resubmits, recovers by lookup: one destination call', async () => {
    const c = ledger.client;
    const destination = new Destination();
    let calls = 0;
    const slowCreate = (ref: string) => {
      calls++;
      destination.create(ref); // saved on receipt …
      return Promise.reject(new Error('timeout')); // … answered after the worker gave up
    };
    const claim = await c.claim(key('C9'), { ticket: 'T' });
    const id = claim.body.operationId;
    await c.op(id, 'steps/create/start', { fencingToken: 1 });
    await expect(slowCreate('C9')).rejects.toThrow('timeout');

    const retryable = await c.op(id, 'fail', {
      fencingToken: 1,
      error: { code: 'timeout', message: 't' },
      retryable: true,
    });
    expect(retryable.status).toBe(409);
    expect(retryable.body.code).toBe('outcome-uncertain');
    const unknown = await c.op(id, 'unknown', { fencingToken: 1, reason: 'timed out after 10 s' });
    expect(unknown.status).toBe(200);
    expect(unknown.body.state).toBe('unknown');

    for (let i = 0; i < 3; i++) {
      const resubmit = await c.claim(key('C9'), { ticket: 'T' });
      expect(resubmit.status).toBe(409);
      expect(resubmit.body.code).toBe('awaiting-recovery');
    }
    const found = destination.find('C9');
    expect(found).toHaveLength(1);
    const resolved = await c.op(id, 'resolve', {
      resolution: 'confirmed',
      destinationRef: found[0]!.id,
      reason: 'lookup by external reference',
      actor: 'recovery-bot',
    });
    expect(resolved.status).toBe(200);
    expect(calls).toBe(1);
    expect(destination.count).toBe(1);
    expect((await c.claim(key('C9'), { ticket: 'T' })).body.outcome.destinationRef).toBe(found[0]!.id);
  });
});
