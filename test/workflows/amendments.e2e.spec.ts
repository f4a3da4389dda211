// Amendments (docs/api.md "Recovery and operator workflows"): a newer revision supersedes older ones,
// in any arrival order, within a batch and across batches; confirmed history is never rewritten.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('postgres');
});
afterAll(() => ledger.close());

const key = (subject: string, revision: number) => ({
  tenant: 'acme',
  source: 'erp',
  action: 'invoice.create',
  subject,
  revision,
});
const claimOf = (subject: string, revision: number) => ({
  key: key(subject, revision),
  payload: { amount: 100 * revision },
  ...(revision > 1 ? { supersedes: revision - 1 } : {}),
});

const ORDERS = [
  [1, 2, 3],
  [1, 3, 2],
  [2, 1, 3],
  [2, 3, 1],
  [3, 1, 2],
  [3, 2, 1],
];

describe.each(ORDERS)('revisions arriving as %i, %i, %i', (...order) => {
  const subject = `INV-${order.join('')}`;

  it('across requests: only revisions claimed before a newer one acquire; later claims of older ones are superseded', async () => {
    const statuses: Record<number, number> = {};
    for (const revision of order) {
      const res = await ledger.client.post('/v1/claims', claimOf(subject, revision));
      statuses[revision] = res.status;
      const newerSeen = order.slice(0, order.indexOf(revision)).some((r) => r > revision);
      if (newerSeen) {
        expect(res.status).toBe(409);
        expect(res.body.code).toBe('superseded');
      } else {
        expect(res.status).toBe(201);
      }
    }
    // Afterwards, every older revision is refused, the newest is held by its worker.
    for (const revision of [1, 2]) {
      const res = await ledger.client.post('/v1/claims', claimOf(subject, revision));
      expect(res.body.code).toBe('superseded');
      expect(res.body.supersededBy).toBe(3);
    }
    expect((await ledger.client.post('/v1/claims', claimOf(subject, 3))).body.code).toBe('in-progress');
  });

  it('within one batch: the newest revision acquires and older ones are superseded', async () => {
    const batchSubject = `B-${subject}`;
    const res = await ledger.client.post('/v1/claims/batch', {
      claims: order.map((r) => claimOf(batchSubject, r)),
    });
    const byRevision = Object.fromEntries(res.body.results.map((r: any, i: number) => [order[i], r]));
    expect(byRevision[3].status).toBe(201);
    expect([byRevision[1].body.code, byRevision[2].body.code]).toEqual(['superseded', 'superseded']);
    expect(res.body.results.map((r: any) => r.index)).toEqual([0, 1, 2]);
  });
});

it('amending a confirmed operation appends OperationSuperseded and never rewrites its history', async () => {
  const first = await ledger.client.post('/v1/claims', claimOf('INV-C', 1));
  const id = first.body.operationId;
  await ledger.client.op(id, 'confirm', { fencingToken: 1, destinationRef: 'INV-C-1' });
  const before = (await ledger.client.history(id)).body.events;
  const amended = await ledger.client.post('/v1/claims', claimOf('INV-C', 2));
  expect(amended.status).toBe(201);
  const after = (await ledger.client.history(id)).body.events;
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after.slice(before.length).map((e: any) => [e.type, e.data.byRevision])).toEqual([
    ['OperationSuperseded', 2],
  ]);
  const status = await ledger.client.status(id);
  expect(status.body).toMatchObject({ state: 'confirmed', destinationRef: 'INV-C-1' });
  const stale = await ledger.client.post('/v1/claims', claimOf('INV-C', 1));
  expect(stale.body.code).toBe('superseded');
});

it('refuses supersedes that is not below the revision', async () => {
  const res = await ledger.client.post('/v1/claims', { key: key('INV-X', 2), payload: {}, supersedes: 2 });
  expect(res.status).toBe(400);
  expect(res.body.errors[0].field).toBe('supersedes');
});
