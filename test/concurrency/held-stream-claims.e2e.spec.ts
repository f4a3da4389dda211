// A repeated claim is decided on the copy of the stream this process holds from the previous
// refusal (EventStore.peek), proven current by its audit write. These tests make that copy stale —
// through this process and through another replica — and check that the answer and the audit
// trail follow the stream as stored, never the stale copy.
import { createTestDatabase } from '../support/postgres-test-db.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const key = (subject: string) => ({ tenant: 'shop-1', source: 'shopify', action: 'invoice.create', subject });
const payload = { order: 'O-1', total: 10 };

interface DuplicateRecord {
  type: string;
  data: { state: string; answer: string; count?: number };
}

/** The duplicate-claim records of an operation, as its history shows them. */
async function duplicateRecords(ledger: TestLedger, id: string): Promise<DuplicateRecord[]> {
  const history = await ledger.client.history(id);
  expect(history.status).toBe(200);
  return (history.body.events as DuplicateRecord[]).filter((e) => e.type === 'DuplicateClaimPrevented');
}

/** The state each duplicate claim of an operation was answered in, once per duplicate (counts expanded). */
async function duplicatesPrevented(ledger: TestLedger, id: string) {
  return (await duplicateRecords(ledger, id)).flatMap((e) =>
    Array<string>(e.data.count ?? 1).fill(e.data.state),
  );
}

/** {@link duplicatesPrevented} once `n` duplicates are recorded (a window's count is recorded when it ends). */
async function duplicatesPreventedOnce(ledger: TestLedger, id: string, n: number) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const states = await duplicatesPrevented(ledger, id);
    if (states.length >= n || Date.now() > deadline) return states;
    await new Promise((r) => setTimeout(r, 50));
  }
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

  it('repeats of an unchanged operation are answered and each counted once, in coalesced records', async () => {
    const c = ledger.client;
    const first = await c.claim(key('repeat'), payload);
    const id = first.body.operationId;
    expect((await c.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-1' })).status).toBe(200);
    const repeats = await Promise.all(Array.from({ length: 20 }, () => c.claim(key('repeat'), payload)));
    expect(repeats.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(repeats.every((r) => r.body.replayed === true)).toBe(true);
    // the first repeat is recorded before its answer; the others of its window as one count
    expect((await duplicateRecords(ledger, id)).length).toBeGreaterThanOrEqual(1);
    expect(await duplicatesPreventedOnce(ledger, id, 20)).toEqual(Array(20).fill('confirmed'));
    expect((await duplicateRecords(ledger, id)).length).toBeLessThan(20);
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
