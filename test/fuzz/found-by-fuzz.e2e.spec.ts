// Requests the every-route fuzz (every-route.e2e.spec.ts) once answered with a 5xx; each must be
// a 4xx problem naming what is wrong, and change nothing.
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
});
afterAll(() => ledger.close());

it.each(['null', '"text"', '42', '[]', 'true'])(
  'POST /v1/claims/batch with the JSON body %s is 400 naming the body',
  async (raw) => {
    const before = (await ledger.store.readAll?.(0n, 10_000))?.length;
    const res = await ledger.client.post('/v1/claims/batch', undefined, { raw });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(res.body.errors).toEqual([
      { field: 'body', message: expect.stringContaining('must be a JSON object') },
    ]);
    expect((await ledger.store.readAll?.(0n, 10_000))?.length).toBe(before);
  },
);

it('does not parse a batch body twice: a JSON string holding a batch is refused, not claimed', async () => {
  const batch = {
    claims: [{ key: { tenant: 'acme', source: 'fuzz', action: 'a', subject: 'twice' }, payload: {} }],
  };
  const res = await ledger.client.post('/v1/claims/batch', undefined, {
    raw: JSON.stringify(JSON.stringify(batch)),
  });
  expect(res.status).toBe(400);
  expect((await ledger.store.read('operation-acme/fuzz/a/twice@1')).length).toBe(0);
});
