// recover({ loop }) against a scripted ledger: a transient failure (lookup throws, evidence 503)
// is tried again on a later pass; a definitive refusal is not (it once was never tried again).
import { LedgerClient } from '@operation-ledger/client';
import { FakeLedger, OP, json, problem } from './support/fake-ledger.js';

const KEY = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:9', revision: 1 };

/**
 * A ledger with one unknown outcome in the review queue until evidence is accepted; `evidence`
 * answers the evidence requests in turn (then 200). The loop is aborted after `passes` reads.
 */
function unknownOutcome(passes: number, evidence: (() => Response)[] = []) {
  const fake = new FakeLedger();
  const stop = new AbortController();
  let reads = 0;
  let state = 'unknown';
  const many = (handler: () => Response) => Array.from({ length: passes + 5 }, () => handler);
  fake.on(
    'GET /review-queue',
    ...many(() => {
      if (++reads >= passes) stop.abort();
      const items =
        state === 'unknown'
          ? [{ operationId: OP, since: '2025-01-01T00:00:00.000Z', startedSteps: [{ step: 'call' }] }]
          : [];
      return json(200, { items, nextCursor: null });
    }),
  );
  fake.on(
    'GET /v1/operations/' + OP,
    ...many(() => json(200, { operationId: OP, key: KEY, state, steps: [] })),
  );
  fake.on('GET /history', ...many(() => json(200, { operationId: OP, events: [] })));
  fake.on(
    'POST /evidence',
    ...evidence,
    ...many(() => {
      state = 'settled';
      return json(200, { operationId: OP, state: 'confirmed' });
    }),
  );
  const sdk = new LedgerClient({
    baseUrl: 'http://ledger.test',
    fetch: fake.fetch,
    retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
  });
  return { fake, sdk, loop: { intervalMs: 1, signal: stop.signal } };
}

describe('recover loop and failures', () => {
  it('a lookup that threw once is asked again on a later pass, and its finding is recorded', async () => {
    const { fake, sdk, loop } = unknownOutcome(6);
    let calls = 0;
    const report = await sdk.recover({
      tenant: 'acme',
      loop,
      lookup: () => {
        if (++calls === 1) throw new Error('destination briefly unreachable');
        return { found: 'ref-x' };
      },
    });
    expect(calls).toBe(2);
    expect(report.found).toBe(1);
    expect(fake.sent('/evidence').map((r) => r.body)).toMatchObject([
      { verdict: 'found', destinationRef: 'ref-x' },
    ]);
  });

  it('evidence the ledger could not take (503) is sent again on a later pass', async () => {
    const unavailable = () => problem(503, 'unavailable', {}, { 'retry-after': '0' });
    const { fake, sdk, loop } = unknownOutcome(8, [unavailable, unavailable]);
    const report = await sdk.recover({ tenant: 'acme', loop, lookup: () => ({ notFound: true }) });
    expect(report.notFound).toBe(1);
    expect(fake.sent('/evidence')).toHaveLength(3);
    expect(report.errors).toHaveLength(1);
  });

  it('backs off: a lookup that keeps failing is asked on passes 1, 2, 4, 8', async () => {
    const { sdk, loop } = unknownOutcome(10);
    let asked = 0;
    const report = await sdk.recover({
      tenant: 'acme',
      loop,
      lookup: () => {
        asked++;
        throw new Error('down');
      },
    });
    expect(report.passes).toBe(10);
    expect(asked).toBe(4);
    expect(report.errors).toHaveLength(1);
  });

  it('a definitive refusal of the evidence (403) is not asked again', async () => {
    const { fake, sdk, loop } = unknownOutcome(6, [() => problem(403, 'forbidden')]);
    let calls = 0;
    const report = await sdk.recover({
      tenant: 'acme',
      loop,
      lookup: () => (calls++, { found: 'ref-x' }),
    });
    expect(calls).toBe(1);
    expect(fake.sent('/evidence')).toHaveLength(1);
    expect(report.errors).toHaveLength(1);
    expect(report.found).toBe(0);
  });
});
