// Round-trip shortcuts over HTTP (docs/api.md "Worker follow-ups"): claim+start and confirm+complete, each one append (one commit);
// the old three-request forms keep working. Events are counted in the store, destination
// records at the simulated destination.
import type { RecordedEvent } from '../../src/event-store/event-store.port.js';
import { operationStreamName, providerIdempotencyKey } from '../../src/ledger/index.js';
import { Destination } from '../support/destination.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres');
});
afterAll(() => ledger.close());

const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });
const stream = (subject: string) => ledger.store.read(operationStreamName({ ...key(subject), revision: 1 }));

/**
 * The events of one append: consecutive stream and global positions, written by one command
 * (one causationId) in one commit (one recordedAt).
 */
function expectOneAppend(events: readonly RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    expect(events[i]!.streamPosition).toBe(events[i - 1]!.streamPosition + 1n);
    expect(events[i]!.globalPosition).toBe(events[i - 1]!.globalPosition + 1n);
    expect(events[i]!.metadata.causationId).toBe(events[0]!.metadata.causationId);
    expect(events[i]!.recordedAt.getTime()).toBe(events[0]!.recordedAt.getTime());
  }
}

describe('one-step job in two requests', () => {
  it('claim+start and confirm+complete: four events in two appends, one destination record', async () => {
    const c = ledger.client;
    const destination = new Destination();
    const claim = await c.claim(key('S-1'), { total: 12 }, { startStep: 'create-invoice' });
    expect(claim.status).toBe(201);
    const id = claim.body.operationId;
    const pik = providerIdempotencyKey({ ...key('S-1'), revision: 1 }, 'create-invoice');
    expect(claim.body.startedStep).toEqual({ name: 'create-invoice', providerIdempotencyKey: pik });

    const afterClaim = await stream('S-1');
    expect(afterClaim.map((e) => e.type)).toEqual(['OperationClaimed', 'StepStarted']);
    expectOneAppend(afterClaim);

    // The route's provider key is the same one.
    const viaRoute = await c.op(id, 'steps/create-invoice/start', { fencingToken: 1 });
    expect(viaRoute.body).toMatchObject({ providerIdempotencyKey: pik, alreadyRecorded: true });

    const ref = destination.create('S-1', pik);
    const confirm = await c.op(id, 'confirm', {
      fencingToken: 1,
      destinationRef: ref,
      completeStep: { name: 'create-invoice', outputs: { invoiceId: ref } },
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({ state: 'confirmed', alreadyRecorded: false });

    const events = await stream('S-1');
    expect(events.map((e) => e.type)).toEqual([
      'OperationClaimed',
      'StepStarted',
      'StepCompleted',
      'OperationConfirmed',
    ]);
    expectOneAppend(events.slice(2));
    expect(events[2]!.metadata.causationId).not.toBe(events[0]!.metadata.causationId);
    expect(events[2]!.data).toMatchObject({ step: 'create-invoice', outputs: { invoiceId: ref } });
    expect(destination.count).toBe(1);

    const status = await c.status(id);
    expect(status.body.steps).toEqual([
      expect.objectContaining({ step: 'create-invoice', status: 'completed', outputs: { invoiceId: ref } }),
    ]);
  });

  it('a replay after the cycle changes nothing: claim with startStep is answered 200, no event', async () => {
    const c = ledger.client;
    const first = await c.claim(key('S-2'), { total: 1 }, { startStep: 'send' });
    const id = first.body.operationId;
    await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'R-2', completeStep: { name: 'send' } });
    const before = await stream('S-2');

    const again = await c.claim(key('S-2'), { total: 1 }, { startStep: 'send' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.startedStep).toBeUndefined();
    const repeat = await c.op(id, 'confirm', {
      fencingToken: 1,
      destinationRef: 'R-2',
      completeStep: { name: 'send' },
    });
    expect(repeat.body).toMatchObject({ state: 'confirmed', alreadyRecorded: true });
    expect((await stream('S-2')).length).toBe(before.length);
  });

  it('a refused claim (in-progress) starts nothing', async () => {
    const c = ledger.client;
    await c.claim(key('S-3'), { n: 3 });
    const second = await c.claim(key('S-3'), { n: 3 }, { startStep: 'send' });
    expect(second.status).toBe(409);
    expect((await stream('S-3')).map((e) => e.type)).toEqual(['OperationClaimed']);
  });

  it('stale tokens are refused for both shortcuts, nothing recorded', async () => {
    const c = ledger.client;
    const first = await c.claim(key('S-4'), { n: 4 }, { startStep: 'send', leaseMs: 1_000 });
    const id = first.body.operationId;
    await c.op(id, 'release', { fencingToken: 1 }).then((r) => expect(r.body.code).toBe('outcome-uncertain'));
    await c.op(id, 'unknown', { fencingToken: 1, reason: 'timeout' });
    await c.op(id, 'resolve', { resolution: 'not_found', reason: 'nothing there' });
    const second = await c.claim(key('S-4'), { n: 4 }, { startStep: 'send' });
    expect(second.body).toMatchObject({ attempt: 2, startedStep: { name: 'send' } });
    const before = (await stream('S-4')).length;

    const stale = await c.op(id, 'confirm', {
      fencingToken: 1,
      destinationRef: 'R-4',
      completeStep: { name: 'send' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('stale-token');
    expect((await stream('S-4')).length).toBe(before);
  });

  it('completeStep naming a step not started by this attempt: 409 step-not-started, nothing recorded', async () => {
    const c = ledger.client;
    const first = await c.claim(key('S-5'), { n: 5 }, { startStep: 'a' });
    const res = await c.op(first.body.operationId, 'confirm', {
      fencingToken: 1,
      destinationRef: 'R-5',
      completeStep: { name: 'b' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('step-not-started');
    expect((await stream('S-5')).map((e) => e.type)).toEqual(['OperationClaimed', 'StepStarted']);
  });

  it.each([
    ['claim startStep', () => ledger.client.claim(key('S-6'), { n: 6 }, { startStep: 'a b' }), 'startStep'],
    [
      'claim startStep not a string',
      () => ledger.client.claim(key('S-6'), { n: 6 }, { startStep: 7 }),
      'startStep',
    ],
    [
      'confirm completeStep.name',
      () =>
        ledger.client.op('00000000-0000-5000-8000-000000000000', 'confirm', {
          fencingToken: 1,
          completeStep: { name: 'a/b' },
        }),
      'completeStep.name',
    ],
  ])('%s is validated like the step route: 400 naming the field', async (_label, send, field) => {
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.errors.map((e: any) => e.field)).toContain(field);
    expect((await stream('S-6')).length).toBe(0);
  });

  it('batch items may name startStep: each acquired slot carries its startedStep, one append each', async () => {
    const c = ledger.client;
    const res = await c.post('/v1/claims/batch', {
      claims: [
        { key: key('B-1'), payload: { n: 1 }, startStep: 'send' },
        { key: key('B-2'), payload: { n: 2 } },
        { key: key('B-1'), payload: { n: 1 }, startStep: 'send' },
        { key: key('B-3'), payload: { n: 3 }, startStep: 'bad step' },
      ],
    });
    expect(res.status).toBe(200);
    const [one, two, repeat, bad] = res.body.results;
    expect(one.status).toBe(201);
    expect(one.body.startedStep).toEqual({
      name: 'send',
      providerIdempotencyKey: providerIdempotencyKey({ ...key('B-1'), revision: 1 }, 'send'),
    });
    expect(two.status).toBe(201);
    expect(two.body.startedStep).toBeUndefined();
    expect(repeat.status).toBe(409);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field)).toContain('startStep');
    const b1 = await stream('B-1');
    expect(b1.map((e) => e.type)).toEqual(['OperationClaimed', 'StepStarted']);
    expectOneAppend(b1);
    expect((await stream('B-2')).map((e) => e.type)).toEqual(['OperationClaimed']);
    expect((await stream('B-3')).length).toBe(0);
  });
});
