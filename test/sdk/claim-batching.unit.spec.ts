// With batchClaims, a worker's claims made while one of its claim requests is in flight leave
// together as one POST /v1/claims/batch; a lone claim leaves at once on POST /v1/claims. Each
// caller gets its own answer or typed error. Scripted ledger behind an injected fetch.
import { InProgressError, LedgerClient, LedgerUnavailableError } from '@operation-ledger/client';
import { FakeLedger, OP, acquired, json, problem, type SentRequest } from './support/fake-ledger.js';

const key = (n: number) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject: `o:${n}` });
const claim = (n: number) => ({ key: key(n), payload: { n } });

/** A response held until `release()`. */
function held() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { release, answer: async () => (await gate, acquired()) };
}

const slot = (index: number, status: number, body: unknown) => ({ index, status, body });
const acquiredBody = (n: number) => ({
  operationId: `op-${n}`,
  state: 'in_progress',
  attempt: 1,
  fencingToken: 1,
  leaseExpiresAt: new Date().toISOString(),
  fingerprint: 'f',
  reason: 'first',
  completedSteps: [],
});
const problemBody = (status: number, code: string) => ({
  type: `https://operation-ledger.dev/problems/${code}`,
  status,
  code,
  retryAfterMs: 250,
});

function client(fake: FakeLedger) {
  return new LedgerClient({
    baseUrl: 'http://ledger.test',
    fetch: fake.fetch,
    batchClaims: true,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
}

it('a claim made while none is in flight leaves at once, alone', async () => {
  const fake = new FakeLedger();
  const sdk = client(fake);
  expect(await sdk.worker.claim(claim(1))).toMatchObject({ kind: 'acquired', operationId: OP });
  expect(await sdk.worker.claim(claim(2))).toMatchObject({ kind: 'acquired' });
  expect(fake.trail).toEqual(['claims', 'claims']);
});

it('claims made meanwhile leave as one batch, each with its own answer or typed error', async () => {
  const first = held();
  const fake = new FakeLedger()
    .on('POST /v1/claims', first.answer)
    .on('POST /v1/claims/batch', (req: SentRequest) => {
      expect(req.body.claims.map((c: { payload: { n: number } }) => c.payload.n)).toEqual([2, 3, 4]);
      return json(200, {
        results: [
          slot(0, 201, acquiredBody(2)),
          slot(1, 409, problemBody(409, 'in-progress')),
          slot(2, 201, acquiredBody(4)),
        ],
      });
    });
  const sdk = client(fake);
  const answers = [1, 2, 3, 4].map((n) => sdk.worker.claim(claim(n)).catch((e: unknown) => e));
  first.release();
  const [a1, a2, a3, a4] = await Promise.all(answers);
  expect(a1).toMatchObject({ kind: 'acquired', operationId: OP });
  expect(a2).toMatchObject({ kind: 'acquired', operationId: 'op-2' });
  expect(a3).toBeInstanceOf(InProgressError);
  expect(a3).toMatchObject({ retryAfterMs: 250 });
  expect(a4).toMatchObject({ kind: 'acquired', operationId: 'op-4' });
  expect(fake.trail).toEqual(['claims', 'claims/batch']);
});

it('a slot the ledger could not decide (503) is claimed again alone', async () => {
  const first = held();
  const fake = new FakeLedger()
    .on('POST /v1/claims', first.answer)
    .on('POST /v1/claims/batch', () =>
      json(200, { results: [slot(0, 503, problemBody(503, 'contention')), slot(1, 201, acquiredBody(3))] }),
    );
  const sdk = client(fake);
  const answers = [1, 2, 3].map((n) => sdk.worker.claim(claim(n)));
  first.release();
  expect(await Promise.all(answers)).toMatchObject([
    { operationId: OP },
    { operationId: OP },
    { operationId: 'op-3' },
  ]);
  expect(fake.trail).toEqual(['claims', 'claims/batch', 'claims']);
  expect(fake.requests[2]!.body.payload).toEqual({ n: 2 });
});

it('a batch the ledger cannot take is unavailable for each of its claims', async () => {
  const first = held();
  const down = () => problem(503, 'store-unavailable');
  const fake = new FakeLedger()
    .on('POST /v1/claims', first.answer)
    .on('POST /v1/claims/batch', ...Array(5).fill(down));
  const sdk = client(fake);
  const answers = [1, 2, 3].map((n) => sdk.worker.claim(claim(n)).catch((e: unknown) => e));
  first.release();
  const [a1, a2, a3] = await Promise.all(answers);
  expect(a1).toMatchObject({ kind: 'acquired' });
  expect(a2).toBeInstanceOf(LedgerUnavailableError);
  expect(a3).toBeInstanceOf(LedgerUnavailableError);
});

it('a waiting claim whose signal aborts rejects with the reason and is never sent', async () => {
  const first = held();
  const fake = new FakeLedger().on('POST /v1/claims', first.answer);
  const sdk = client(fake);
  const controller = new AbortController();
  const one = sdk.worker.claim(claim(1));
  const two = sdk.worker.claim(claim(2), controller.signal);
  controller.abort(new Error('shutting down'));
  await expect(two).rejects.toThrow('shutting down');
  first.release();
  await one;
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(fake.trail).toEqual(['claims']);
});

it('runOnce through the batcher still runs the job once and confirms it', async () => {
  const fake = new FakeLedger();
  const sdk = client(fake);
  const result = await sdk.runOnce({ ...key(1), revision: 1 }, {}, async () => ({ destinationRef: 'r' }));
  expect(result.status).toBe('executed');
  expect(fake.trail).toEqual(['claims', 'confirm']);
});
