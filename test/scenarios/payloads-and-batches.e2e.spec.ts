// Core scenarios C1 (equivalent payloads replay, changed payloads conflict), C10 (empty-looking
// outcomes), C11 (batch with duplicates and conflicts).
import { Destination } from '../support/destination.js';
import { runWorker } from '../support/run-worker.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
});
afterAll(() => ledger.close());

const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });

describe('C1 equivalent payloads replay, changed payloads conflict', () => {
  const payload = {
    customer: { id: 'c-1', name: 'Ada' },
    lines: [
      { sku: 'A', qty: 1 },
      { sku: 'B', qty: 2.0 },
    ],
    total: 30,
  };

  it('replays a reordered, pretty-printed redelivery and refuses a swapped array as a conflict', async () => {
    const destination = new Destination();
    const first = await runWorker(ledger.client, destination, key('ORD-C1'), payload, 'ORD-C1');
    expect(first.effect).toBe(true);

    const reordered = `{
      "total": 30.0,
      "lines": [ { "qty": 1, "sku": "A" }, { "qty": 2, "sku": "B" } ],
      "customer": { "name": "Ada", "id": "c-1" }
    }`;
    const redelivery = await ledger.client.post('/v1/claims', undefined, {
      raw: `{ "payload": ${reordered}, "key": ${JSON.stringify(key('ORD-C1'))} }`,
    });
    expect(redelivery.status).toBe(200);
    expect(redelivery.headers.get('idempotent-replayed')).toBe('true');
    expect(redelivery.body).toMatchObject({
      state: 'confirmed',
      replayed: true,
      outcome: { destinationRef: 'REC-1' },
    });

    const swapped = { ...payload, lines: [payload.lines[1], payload.lines[0]] };
    const conflict = await runWorker(ledger.client, destination, key('ORD-C1'), swapped, 'ORD-C1');
    expect(conflict.claim.status).toBe(422);
    expect(conflict.claim.body.code).toBe('payload-conflict');
    expect(conflict.claim.body.existingFingerprint).toBe(first.claim.body.fingerprint);
    expect(conflict.claim.body.incomingFingerprint).not.toBe(first.claim.body.fingerprint);
    expect(destination.count).toBe(1);

    const history = await ledger.client.history(first.claim.body.operationId);
    const types = history.body.events.map((e: any) => e.type);
    expect(types).toEqual([
      'OperationClaimed',
      'StepStarted',
      'OperationConfirmed',
      'DuplicateClaimPrevented',
      'PayloadConflictDetected',
    ]);
  });

  it('refuses a number JSON cannot carry exactly instead of rounding it into the fingerprint', async () => {
    const res = await ledger.client.post('/v1/claims', undefined, {
      raw: `{"key": ${JSON.stringify(key('ORD-BIG'))}, "payload": {"amount": 12345678901234567890}}`,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid-json');
    expect((await ledger.store.read('operation-acme/shop/invoice.create/ORD-BIG@1')).length).toBe(0);
  });
});

describe('C10 empty-looking outcomes are still confirmations', () => {
  it.each([[''], ['0'], [undefined]])('destinationRef %j replays and never re-executes', async (ref) => {
    const subject = `ORD-C10-${ref === undefined ? 'absent' : JSON.stringify(ref)}`;
    const claim = await ledger.client.claim(key(subject), { n: 1 });
    expect(claim.status).toBe(201);
    const body: Record<string, unknown> = { fencingToken: claim.body.fencingToken };
    if (ref !== undefined) body.destinationRef = ref;
    expect((await ledger.client.op(claim.body.operationId, 'confirm', body)).status).toBe(200);
    const again = await ledger.client.claim(key(subject), { n: 1 });
    expect(again.status).toBe(200);
    expect(again.body.state).toBe('confirmed');
    expect(again.body.outcome.destinationRef).toBe(ref === undefined ? null : ref);
    const claims = (await ledger.client.history(claim.body.operationId)).body.events.filter(
      (e: any) => e.type === 'OperationClaimed',
    );
    expect(claims).toHaveLength(1);
  });
});

describe('C11 batch with duplicates and conflicts', () => {
  async function seed(prefix: string) {
    const destination = new Destination();
    await runWorker(ledger.client, destination, key(`${prefix}-done`), { v: 1 }, 'x');
    await runWorker(ledger.client, destination, key(`${prefix}-conflict`), { v: 1 }, 'y');
  }

  it.each([['forward'], ['reversed']])('answers five items in input order (%s)', async (order) => {
    const p = `C11-${order}`;
    await seed(p);
    let items = [
      { key: key(`${p}-done`), payload: { v: 1 }, expect: 200 },
      { key: key(`${p}-conflict`), payload: { v: 2 }, expect: 422 },
      { key: key(`${p}-new-1`), payload: { v: 1 }, expect: 201 },
      { key: { ...key(`${p}-bad`), subject: ' bad' }, payload: { v: 1 }, expect: 400 },
      { key: key(`${p}-new-2`), payload: { v: 1 }, expect: 201 },
    ];
    if (order === 'reversed') items = items.reverse();
    const res = await ledger.client.post('/v1/claims/batch', {
      claims: items.map(({ key: k, payload }) => ({ key: k, payload })),
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: any) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(res.body.results.map((r: any) => r.status)).toEqual(items.map((i) => i.expect));
    const conflict = res.body.results.find((r: any) => r.status === 422);
    expect(conflict.body.code).toBe('payload-conflict');
    const created = res.body.results.filter((r: any) => r.status === 201);
    for (const c of created) {
      expect((await ledger.client.status(c.body.operationId)).body.state).toBe('in_progress');
    }
  });

  it('a key repeated inside one batch is acquired once; the repeat is answered in-progress', async () => {
    const res = await ledger.client.post('/v1/claims/batch', {
      claims: [
        { key: key('C11-twice'), payload: { v: 1 } },
        { key: key('C11-twice'), payload: { v: 1 } },
      ],
    });
    expect(res.body.results.map((r: any) => r.status)).toEqual([201, 409]);
    expect(res.body.results[1].body.code).toBe('in-progress');
  });
});
