// Leases on the worker side, against a scripted ledger behind an injected fetch: runMany claims
// only what can start at once, and op.signal aborts once no renewal succeeded for a whole lease
// even while a renewal hangs (both once failed).
import { LeasePresumedLostError, LedgerClient, type FetchLike } from '@operation-ledger/client';
import { FakeLedger, json } from './support/fake-ledger.js';

const key = (i: number) => ({ tenant: 'acme', source: 'shop', action: 'backfill', subject: `item:${i}` });
const opId = (i: number) => `00000000-0000-5000-8000-${String(i).padStart(12, '0')}`;

/** Answers every batch claim `acquired`, one operation per item subject; the rest is `fake`'s. */
function batchLedger(fake: FakeLedger, batches: number[]): FetchLike {
  return async (input, init) => {
    if (new URL(input).pathname !== '/v1/claims/batch') return fake.fetch(input, init);
    const claims = (JSON.parse(String(init.body)) as { claims: { key: { subject: string } }[] }).claims;
    batches.push(claims.length);
    const results = claims.map((c, index) => ({
      index,
      status: 201,
      body: {
        operationId: opId(Number(c.key.subject.split(':')[1])),
        state: 'in_progress',
        attempt: 1,
        fencingToken: 1,
        leaseExpiresAt: new Date(Date.now() + 30_000).toISOString(),
        fingerprint: 'f',
        reason: 'first',
        completedSteps: [],
      },
    }));
    return json(200, { results });
  };
}

describe('runMany claims only what can start now', () => {
  it('no batch holds more claims than free slots; every item runs once and is confirmed', async () => {
    const fake = new FakeLedger();
    const batches: number[] = [];
    const sdk = new LedgerClient({ baseUrl: 'http://ledger.test', fetch: batchLedger(fake, batches) });
    const ran: number[] = [];
    const reports = await sdk.runMany(
      Array.from({ length: 7 }, (_, i) => i),
      async (_op, item) => {
        ran.push(item);
        await new Promise((r) => setTimeout(r, 5 + (item % 3) * 5));
        return { destinationRef: `r${item}` };
      },
      { key: (i) => key(i), payload: (i) => ({ i }), concurrency: 2, chunkSize: 100 },
    );
    expect(reports.map((r) => r.ok && r.result.status)).toEqual(Array(7).fill('executed'));
    expect(ran.sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(Math.max(...batches)).toBeLessThanOrEqual(2);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(7);
    expect(fake.sent('/confirm')).toHaveLength(7);
  });

  it('each claim of a batch carries its own claimRequestId', async () => {
    const fake = new FakeLedger();
    const bodies: { claimRequestId?: string }[] = [];
    const inner = batchLedger(fake, []);
    const sdk = new LedgerClient({
      baseUrl: 'http://ledger.test',
      fetch: (input, init) => {
        if (input.endsWith('/v1/claims/batch'))
          bodies.push(...(JSON.parse(String(init.body)) as { claims: { claimRequestId?: string }[] }).claims);
        return inner(input, init);
      },
    });
    await sdk.runMany([1, 2, 3], () => ({}), { key: (i) => key(i), payload: () => ({}), concurrency: 3 });
    const ids = bodies.map((b) => b.claimRequestId);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });
});

describe('op.signal and a renewal that hangs', () => {
  it('aborts with LeasePresumedLostError once a lease has passed, without waiting for the hung renewal', async () => {
    const fake = new FakeLedger();
    let renewals = 0;
    fake.on(
      'POST /lease/renew',
      ...Array.from(
        { length: 20 },
        () => (_req: unknown) =>
          new Promise<Response>(() => {
            renewals++; // a black hole: never answers
          }),
      ),
    );
    const hanging: FetchLike = (input, init) => {
      const answer = fake.fetch(input, init);
      return new Promise((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(init.signal!.reason), { once: true });
        answer.then(resolve, reject);
      });
    };
    // The client's own timeout is far beyond the test's: only the lease's deadline can end this.
    const sdk = new LedgerClient({ baseUrl: 'http://ledger.test', fetch: hanging, timeoutMs: 600_000 });
    let reason: unknown;
    await sdk.runOnce(
      key(1),
      {},
      async (op) => {
        reason = await new Promise((resolve) =>
          op.signal.addEventListener('abort', () => resolve(op.signal.reason), { once: true }),
        );
        return {};
      },
      { leaseMs: 1_000 },
    );
    expect(reason).toBeInstanceOf(LeasePresumedLostError);
    expect((reason as LeasePresumedLostError).sinceMs).toBeGreaterThanOrEqual(1_000);
    expect(renewals).toBeGreaterThanOrEqual(1);
  }, 20_000);
});
