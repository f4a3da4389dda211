// A claim whose answer is lost (the request reached the ledger, the connection then failed) is
// retried by the transport with the same claimRequestId, and the ledger answers it as the
// acquisition it made: the job runs once, as attempt 1 (it once got 409 in-progress against
// itself for the whole lease). Against the real HTTP app on PostgreSQL.
import type { FetchLike, LedgerClient } from '@operation-ledger/client';
import { Destination } from '../support/destination.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { sdkClient } from './support/sdk-harness.js';

/** Performs the first request matching `path`, then throws as a dropped connection would. */
function dropFirstAnswer(path: string): FetchLike & { dropped: number } {
  const wrapped = Object.assign(
    async (input: string, init: RequestInit) => {
      const res = await fetch(input, init);
      if (wrapped.dropped === 0 && new URL(input).pathname === path) {
        wrapped.dropped++;
        await res.arrayBuffer();
        throw new TypeError('fetch failed');
      }
      return res;
    },
    { dropped: 0 },
  );
  return wrapped;
}

describe('a lost claim answer (PostgreSQL)', () => {
  let ledger: TestLedger;
  let sdk: LedgerClient;
  beforeAll(async () => {
    ledger = await startTestLedger('postgres');
    sdk = sdkClient(ledger);
  });
  afterAll(() => ledger.close());

  const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });

  it.each([
    ['runOnce', '/v1/claims', undefined],
    ['runOnce with firstStep', '/v1/claims', 'create'],
  ] as const)('%s: the job runs once, attempt 1, one OperationClaimed', async (_name, path, firstStep) => {
    const destination = new Destination();
    const drop = dropFirstAnswer(path);
    const worker = sdkClient(ledger, { fetch: drop });
    const subject = `lost-claim-${firstStep ?? 'plain'}`;
    const r = await worker.runOnce(
      key(subject),
      { n: 1 },
      async (op) => ({ destinationRef: await op.step('create', (pk) => destination.create(subject, pk)) }),
      firstStep ? { firstStep } : {},
    );
    expect(drop.dropped).toBe(1);
    expect(r).toMatchObject({ status: 'executed', attempt: 1 });
    expect(destination.count).toBe(1);
    const events = (await sdk.operations.history(r.operationId)).events;
    expect(events.filter((e) => e.type === 'OperationClaimed')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'StepStarted')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'OperationConfirmed')).toHaveLength(1);
    expect(events.find((e) => e.type === 'OperationClaimed')!.data.claimRequestId).toEqual(
      expect.any(String),
    );
  });

  it('runMany: a lost batch answer is retried; every item runs once, attempt 1', async () => {
    const destination = new Destination();
    const drop = dropFirstAnswer('/v1/claims/batch');
    const worker = sdkClient(ledger, { fetch: drop });
    const reports = await worker.runMany(
      [1, 2, 3],
      async (op, i) => ({ destinationRef: await op.step('create', (pk) => destination.create(`b${i}`, pk)) }),
      { key: (i) => key(`lost-batch-${i}`), payload: (i) => ({ i }), concurrency: 3 },
    );
    expect(drop.dropped).toBe(1);
    expect(reports.map((r) => r.ok && [r.result.status, r.result.attempt])).toEqual([
      ['executed', 1],
      ['executed', 1],
      ['executed', 1],
    ]);
    expect(destination.count).toBe(3);
  });

  it('another worker, meanwhile, still gets in-progress', async () => {
    const claim = await sdk.worker.claim({ key: key('held'), payload: {}, claimRequestId: 'req-held-1' });
    const again = await sdk.worker.claim({ key: key('held'), payload: {}, claimRequestId: 'req-held-1' });
    expect(again).toMatchObject({ kind: 'acquired', attempt: 1, reason: 'same_claim_request' });
    expect(again.kind === 'acquired' && again.fencingToken).toBe(
      claim.kind === 'acquired' && claim.fencingToken,
    );
    await expect(
      sdk.worker.claim({ key: key('held'), payload: {}, claimRequestId: 'req-other' }),
    ).rejects.toMatchObject({
      code: 'in-progress',
    });
    await expect(sdk.worker.claim({ key: key('held'), payload: {} })).rejects.toMatchObject({
      code: 'in-progress',
    });
    await expect(
      sdk.worker.claim({ key: key('held'), payload: {}, claimRequestId: 'not valid!' }),
    ).rejects.toMatchObject({ status: 400, fields: ['claimRequestId'] });
  });
});
