// docs/api.md "Recovery and operator workflows": an operator's confirmation must name the reference or say it is unknown
// (null + reason); a confirmed operation without one receives it later — by an operator
// (POST …/reference) or by the worker's late confirmation — and that is never a duplicate
// effect. Stream, status, read models, reconciliation and a rebuild all agree.
import { operationStreamName } from '../../src/ledger/index.js';
import type { LedgerClient } from '../support/http-client.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { waitFor } from '../projections/support/wait-for.js';

const T = 'acme-gmbh';
const key = (subject: string) => ({ tenant: T, source: 'shop', action: 'invoice.sync', subject });
const stream = (subject: string) => ledger.store.read(operationStreamName({ ...key(subject), revision: 1 }));

let ledger: TestLedger;
let c: LedgerClient;
beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  c = ledger.client;
});
afterAll(() => ledger.close());

/** Claims `subject`, starts a step and reports a timeout: the operation is unknown. */
async function unknownOperation(subject: string): Promise<string> {
  const claim = await c.claim(key(subject), { n: subject });
  const id = claim.body.operationId;
  await c.op(id, 'steps/create/start', { fencingToken: 1 });
  expect((await c.op(id, 'unknown', { fencingToken: 1, reason: 'TimeoutError after 1000 ms' })).status).toBe(
    200,
  );
  return id;
}

async function settled(): Promise<void> {
  await waitFor(async () => {
    const { body } = await c.get('/v1/projections');
    return body.projections.every((p: any) => p.lag.events === 0);
  }, 'read models caught up');
}

const row = async (id: string) =>
  (await c.get(`/v1/tenants/${T}/operations?action=invoice.sync&limit=500`)).body.items.find(
    (i: any) => i.operationId === id,
  );

describe('resolve confirmed names the reference', () => {
  it('without destinationRef: 400 validation naming destinationRef, nothing recorded', async () => {
    const id = await unknownOperation('R-1');
    const before = (await stream('R-1')).length;
    const res = await c.op(id, 'resolve', { resolution: 'confirmed', reason: 'found it' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.errors.map((e: any) => e.field)).toEqual(['destinationRef']);
    expect((await stream('R-1')).length).toBe(before);
    expect((await c.status(id)).body.state).toBe('unknown');
  });

  it('with destinationRef: null (explicitly unknown) and a reason: confirmed without a reference', async () => {
    const id = await unknownOperation('R-2');
    const res = await c.op(id, 'resolve', {
      resolution: 'confirmed',
      destinationRef: null,
      reason: 'the customer sees the invoice; its number is not in the export yet',
    });
    expect(res.status).toBe(200);
    expect((await c.status(id)).body).toMatchObject({ state: 'confirmed', destinationRef: null });
  });
});

describe('POST …/reference', () => {
  it('records the reference as an audited operator action; read models and reconciliation show it', async () => {
    const id = await unknownOperation('R-3');
    await c.op(id, 'resolve', { resolution: 'confirmed', destinationRef: null, reason: 'found, no number' });
    await settled();
    expect((await row(id)).destinationRef).toBeNull();
    const without = await c.get(`/v1/tenants/${T}/reconciliation?action=invoice.sync`);
    const withoutRef = without.body.totals.byCategory.confirmed_without_ref;
    expect(withoutRef).toBeGreaterThanOrEqual(1);

    const res = await c.op(id, 'reference', {
      destinationRef: 'INV-0045',
      reason: 'looked it up in the accounting system',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      operationId: id,
      state: 'confirmed',
      destinationRef: 'INV-0045',
      alreadyRecorded: false,
      actor: 'test-root',
    });
    const events = await stream('R-3');
    const last = events[events.length - 1]!;
    expect(last.type).toBe('DestinationReferenceRecorded');
    expect(last.data).toMatchObject({
      destinationRef: 'INV-0045',
      source: 'operator',
      actor: 'test-root',
      reason: 'looked it up in the accounting system',
    });
    expect(events.filter((e) => e.type === 'DuplicateEffectDetected')).toHaveLength(0);
    expect((await c.status(id)).body).toMatchObject({
      state: 'confirmed',
      destinationRef: 'INV-0045',
      duplicateEffects: [],
    });

    await settled();
    expect((await row(id)).destinationRef).toBe('INV-0045');
    const after = await c.get(`/v1/tenants/${T}/reconciliation?action=invoice.sync`);
    expect(after.body.totals.byCategory.confirmed_without_ref).toBe(withoutRef - 1);
    const claimAgain = await c.claim(key('R-3'), { n: 'R-3' });
    expect(claimAgain.body.outcome.destinationRef).toBe('INV-0045');
  });

  it('the same reference again: 200 alreadyRecorded, nothing new; another one: 409 reference-already-recorded', async () => {
    const id = await unknownOperation('R-4');
    await c.op(id, 'resolve', { resolution: 'confirmed', destinationRef: null, reason: 'found' });
    await c.op(id, 'reference', { destinationRef: 'INV-4', reason: 'looked up' });
    const count = (await stream('R-4')).length;
    const same = await c.op(id, 'reference', { destinationRef: 'INV-4', reason: 'again' });
    expect(same.body).toMatchObject({ state: 'confirmed', alreadyRecorded: true });
    const other = await c.op(id, 'reference', { destinationRef: 'INV-5', reason: 'typo?' });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      code: 'reference-already-recorded',
      recordedRef: 'INV-4',
      incomingRef: 'INV-5',
    });
    expect((await stream('R-4')).length).toBe(count);
  });

  it('a worker-confirmed operation with a reference: 409 reference-already-recorded; an unconfirmed one: 409 not-confirmed', async () => {
    const done = await c.claim(key('R-5'), { n: 5 });
    await c.op(done.body.operationId, 'confirm', { fencingToken: 1, destinationRef: 'INV-55' });
    const refused = await c.op(done.body.operationId, 'reference', { destinationRef: 'INV-56', reason: 'x' });
    expect(refused.body.code).toBe('reference-already-recorded');
    const running = await c.claim(key('R-6'), { n: 6 });
    const notConfirmed = await c.op(running.body.operationId, 'reference', {
      destinationRef: 'INV-6',
      reason: 'x',
    });
    expect(notConfirmed.status).toBe(409);
    expect(notConfirmed.body).toMatchObject({ code: 'not-confirmed', state: 'in_progress' });
  });

  it('needs the operator role, a reason and a reference', async () => {
    const id = await unknownOperation('R-7');
    const worker = await ledger.createKey({ tenant: T, roles: ['worker'] });
    expect((await worker.client.op(id, 'reference', { destinationRef: 'I', reason: 'r' })).status).toBe(403);
    const noReason = await c.op(id, 'reference', { destinationRef: 'I' });
    expect(noReason.body.errors.map((e: any) => e.field)).toContain('reason');
    const noRef = await c.op(id, 'reference', { reason: 'r' });
    expect(noRef.body.errors.map((e: any) => e.field)).toContain('destinationRef');
  });
});

describe("the worker's late confirmation after an operator confirmed without a reference", () => {
  it('fills the reference in: 200, no duplicate effect, not in the review queue', async () => {
    const id = await unknownOperation('R-8');
    await c.op(id, 'resolve', { resolution: 'confirmed', destinationRef: null, reason: 'customer has it' });
    const late = await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-0088' });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ state: 'confirmed', alreadyRecorded: false });
    const events = await stream('R-8');
    expect(events.map((e) => e.type).slice(-2)).toEqual([
      'OperationResolved',
      'DestinationReferenceRecorded',
    ]);
    expect(events[events.length - 1]!.data).toMatchObject({
      source: 'late_confirmation',
      reportedByAttempt: 1,
    });
    expect((await c.status(id)).body).toMatchObject({ destinationRef: 'INV-0088', duplicateEffects: [] });
    await settled();
    const queueOf = async () =>
      (await c.get(`/v1/tenants/${T}/review-queue`)).body.items.filter((i: any) => i.operationId === id);
    expect(await queueOf()).toEqual([]);
    // A retry of that confirmation is a repeat; a third reference is a real second effect.
    const retry = await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-0088' });
    expect(retry.body.alreadyRecorded).toBe(true);
    const third = await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-0099' });
    expect(third.body).toMatchObject({
      code: 'duplicate-effect',
      recordedRef: 'INV-0088',
      incomingRef: 'INV-0099',
    });
    await settled();
    const [item] = await queueOf();
    expect(item).toMatchObject({ reason: 'duplicate_effect', recordedRef: 'INV-0088' });
    expect(item.duplicates.map((d: any) => d.ref)).toEqual(['INV-0099']);
  });
});

describe('read model rebuild', () => {
  it('a rebuild equals the incremental rows, references included', async () => {
    await settled();
    const before = await c.get(`/v1/tenants/${T}/operations?action=invoice.sync&limit=500`);
    const generation = (await c.get('/v1/projections/operations')).body.generation;
    expect((await c.post('/v1/projections/operations/rebuild')).status).toBe(202);
    await waitFor(
      async () => (await c.get('/v1/projections/operations')).body.generation === generation + 1,
      'swap',
    );
    const after = await c.get(`/v1/tenants/${T}/operations?action=invoice.sync&limit=500`);
    expect(after.body.items).toEqual(before.body.items);
    expect(after.body.items.map((i: any) => i.destinationRef)).toContain('INV-0045');
  });
});
