// A repeated claim is decided on the copy of the stream this process holds from the previous
// refusal (EventStore.peek), proven current by its audit write. These tests make that copy stale —
// through this process and through another replica — and check that the answer and the audit
// trail follow the stream as stored, never the stale copy.
import { createTestDatabase } from '../support/postgres-test-db.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const key = (subject: string) => ({ tenant: 'shop-1', source: 'shopify', action: 'invoice.create', subject });
const payload = { order: 'O-1', total: 10 };

/** The audit events of an operation, as its history shows them. */
async function duplicatesPrevented(ledger: TestLedger, id: string) {
  const history = await ledger.client.history(id);
  expect(history.status).toBe(200);
  return (history.body.events as { type: string; data: { state: string; answer: string } }[])
    .filter((e) => e.type === 'DuplicateClaimPrevented')
    .map((e) => e.data.state);
}

describe.each(['pglite', 'postgres'] as const)('claims decided on a held stream copy (%s)', (store) => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await startTestLedger(store);
  });
  afterAll(() => ledger?.close());

  it('a claim after the holder released is acquired, not refused from the stale copy', async () => {
    const c = ledger.client;
    const first = await c.claim(key('release'), payload);
    expect(first.status).toBe(201);
    const id = first.body.operationId;
    const refused = await c.claim(key('release'), payload); // now held: in progress
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('in-progress');
    expect((await c.op(id, 'release', { fencingToken: 1 })).status).toBe(200);

    const again = await c.claim(key('release'), payload);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ attempt: 2, fencingToken: 2 });
    expect(await duplicatesPrevented(ledger, id)).toEqual(['in_progress']);
  });

  it('repeats of an unchanged operation are answered and each audited once', async () => {
    const c = ledger.client;
    const first = await c.claim(key('repeat'), payload);
    const id = first.body.operationId;
    expect((await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-1' })).status).toBe(200);
    const repeats = await Promise.all(Array.from({ length: 20 }, () => c.claim(key('repeat'), payload)));
    expect(repeats.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(repeats.every((r) => r.body.replayed === true)).toBe(true);
    expect(await duplicatesPrevented(ledger, id)).toEqual(Array(20).fill('confirmed'));
  });
});

describe('claims decided on a held stream copy, changed by another replica (postgres)', () => {
  let a: TestLedger;
  let b: TestLedger;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    a = await startTestLedger('postgres', { databaseUrl: db.connectionString, poolSize: 5 });
    b = await startTestLedger('postgres', { databaseUrl: db.connectionString, poolSize: 5 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
  });

  it('replica B answers from the stream as stored after replica A confirmed', async () => {
    const claimed = await a.client.claim(key('replicas'), payload);
    expect(claimed.status).toBe(201);
    const id = claimed.body.operationId;
    expect((await b.client.claim(key('replicas'), payload)).status).toBe(409); // B holds: in progress
    expect((await a.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-9' })).status).toBe(200);

    const repeat = await b.client.claim(key('replicas'), payload);
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ replayed: true });
    expect(await duplicatesPrevented(a, id)).toEqual(['in_progress', 'confirmed']);
  });
});
