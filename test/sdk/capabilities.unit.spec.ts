// The SDK asks the ledger once which optional features it accepts (`capabilities` in GET /health,
// docs/api.md "Health, metrics and OpenAPI") and sends only those, instead of learning them from
// 400 answers; a ledger without the list is still probed as before.
import { LedgerClient, type LedgerClientOptions } from '@operation-ledger/client';
import { FakeLedger, acquired, json, problem } from './support/fake-ledger.js';

const ALL = [
  'claim-start-step',
  'confirm-complete-step',
  'claim-request-id',
  'claims-batch',
  'step-not-performed',
];
const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:1' };
const client = (fake: FakeLedger, options: Partial<LedgerClientOptions> = {}) =>
  new LedgerClient({
    baseUrl: 'http://ledger.test',
    fetch: fake.fetch,
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 },
    ...options,
  });
const health = (capabilities?: string[]) => () =>
  json(200, { status: 'ok', store: 'pglite', ...(capabilities ? { capabilities } : {}) });
const oneStep = async (op: any) => ({ destinationRef: await op.step('create', () => 'INV-1') });
/** A ledger that refuses the shortcut fields, as one without them does (400 naming the field). */
const refusing = (fake: FakeLedger) => {
  const refuse = (field: string) => () =>
    problem(400, 'validation', { errors: [{ field, message: `property ${field} should not exist` }] });
  return fake
    .on('POST /v1/claims', (req) => (req.body.startStep !== undefined ? refuse('startStep')() : acquired()))
    .on('POST /confirm', (req) =>
      req.body.completeStep !== undefined ? refuse('completeStep')() : json(200, {}),
    );
};

describe('ledger.supports', () => {
  it('is true for the features the ledger lists and false for others, asking /health once', async () => {
    const fake = new FakeLedger().on('GET /health', health(ALL));
    const ledger = client(fake);
    expect(await ledger.supports('claims-batch')).toBe(true);
    expect(await ledger.supports('claim-start-step')).toBe(true);
    expect(await ledger.supports('time-travel')).toBe(false);
    await ledger.runOnce(key, {}, oneStep);
    expect(fake.sent('/health')).toHaveLength(1);
  });

  it('is false for everything from a ledger whose /health has no capabilities field', async () => {
    const fake = new FakeLedger().on('GET /health', health());
    const ledger = client(fake);
    expect(await ledger.supports('claims-batch')).toBe(false);
    expect(await ledger.supports('claim-start-step')).toBe(false);
    expect(fake.sent('/health')).toHaveLength(1);
  });

  it('asks again after a /health that could not be answered, and keeps the next answer', async () => {
    const fake = new FakeLedger()
      .on('GET /health', () => problem(503, 'store-unavailable'))
      .on('GET /health', health(['claims-batch']));
    const ledger = client(fake);
    expect(await ledger.supports('claims-batch')).toBe(false); // one attempt: not retried
    expect(fake.sent('/health')).toHaveLength(1);
    expect(await ledger.supports('claims-batch')).toBe(true);
    expect(await ledger.supports('claims-batch')).toBe(true);
    expect(fake.sent('/health')).toHaveLength(2);
  });
});

describe('the round-trip shortcuts follow the capabilities', () => {
  it('uses claim+startStep and confirm+completeStep at once when the ledger lists them', async () => {
    const fake = new FakeLedger()
      .on('GET /health', health(ALL))
      .on('POST /v1/claims', (req) =>
        acquired({ startedStep: { name: req.body.startStep, providerIdempotencyKey: 'pk-s' } }),
      );
    await client(fake).runOnce(key, {}, oneStep, { firstStep: 'create' });
    expect(fake.trail).toEqual(['claims', 'confirm']);
    expect(fake.sent('/v1/claims')[0]!.body).toMatchObject({ startStep: 'create' });
    expect(fake.sent('/v1/claims')[0]!.body.claimRequestId).toEqual(expect.any(String));
  });

  it('sends neither shortcut nor claimRequestId, and takes no 400, when the ledger lists none', async () => {
    const fake = refusing(new FakeLedger().on('GET /health', health([])));
    await client(fake).runOnce(key, {}, oneStep, { firstStep: 'create' });
    expect(fake.trail).toEqual(['claims', 'steps/create/start', 'steps/create/complete', 'confirm']);
    expect(fake.sent('/v1/claims')[0]!.body).not.toHaveProperty('startStep');
    expect(fake.sent('/v1/claims')[0]!.body).not.toHaveProperty('claimRequestId');
    expect(fake.sent('/confirm')[0]!.body).not.toHaveProperty('completeStep');
  });

  it('still learns from 400 answers when the ledger has no capabilities list', async () => {
    const fake = refusing(new FakeLedger().on('GET /health', health()));
    await client(fake).runOnce(key, {}, oneStep, { firstStep: 'create' });
    expect(fake.trail).toEqual([
      'claims',
      'claims',
      'steps/create/start',
      'confirm',
      'steps/create/complete',
      'confirm',
    ]);
  });

  it('sends no shortcut with `shortcuts: false` even when listed, but keeps claimRequestId', async () => {
    const fake = new FakeLedger().on('GET /health', health(ALL));
    await client(fake, { shortcuts: false }).runOnce(key, {}, oneStep, { firstStep: 'create' });
    expect(fake.trail).toEqual(['claims', 'steps/create/start', 'steps/create/complete', 'confirm']);
    expect(fake.sent('/v1/claims')[0]!.body).not.toHaveProperty('startStep');
    expect(fake.sent('/v1/claims')[0]!.body.claimRequestId).toEqual(expect.any(String));
  });

  it("stops waiting for the capabilities when the run's signal aborts, and sends no claim", async () => {
    const fake = new FakeLedger().on('GET /health', () => new Promise<Response>(() => undefined));
    const signal = AbortSignal.timeout(50);
    await expect(client(fake).runOnce(key, {}, oneStep, { signal })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(fake.trail).toEqual([]);
  });

  it('goes on without the capabilities after capabilitiesWaitMs when /health hangs, and later runs do not wait for that ask', async () => {
    const fake = refusing(new FakeLedger().on('GET /health', () => new Promise<Response>(() => undefined)));
    const ledger = client(fake, { capabilitiesWaitMs: 1_000, timeoutMs: 60_000 });
    // The first run waits 1 s for /health, well inside its 5 s deadline, then claims.
    const first = await ledger.runOnce(key, {}, oneStep, { signal: AbortSignal.timeout(5_000) });
    expect(first.status).toBe('executed');
    // The second run's deadline is shorter than the wait: it passes only if it does not wait again.
    const second = await ledger.runOnce({ ...key, subject: 'order:2' }, {}, oneStep, {
      signal: AbortSignal.timeout(500),
    });
    expect(second.status).toBe('executed');
    expect(fake.sent('/health')).toHaveLength(1);
    expect(fake.sent('/v1/claims')).toHaveLength(2);
  });

  it('refuses a bad key before asking anything', async () => {
    const fake = new FakeLedger();
    await expect(client(fake).runOnce({ ...key, subject: '' }, {}, oneStep)).rejects.toThrow();
    expect(fake.requests).toEqual([]);
  });
});

describe('claim batching follows the capabilities', () => {
  /** Four concurrent claims: the first leaves alone; the other three wait for it. */
  const fourClaims = async (capabilities: string[]) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fake = new FakeLedger()
      .on('GET /health', health(capabilities))
      .on('POST /v1/claims', async () => (await gate, acquired()))
      .on('POST /v1/claims/batch', (req) =>
        json(200, {
          results: req.body.claims.map((_: unknown, index: number) => ({
            index,
            status: 201,
            body: { operationId: `op-${index}`, state: 'in_progress', attempt: 1, fencingToken: 1 },
          })),
        }),
      );
    const ledger = client(fake, { batchClaims: true });
    await ledger.supports('claims-batch');
    const claims = [1, 2, 3, 4].map((n) =>
      ledger.worker.claim({ key: { ...key, subject: `o:${n}` }, payload: { n } }).catch((e: unknown) => e),
    );
    release();
    await Promise.all(claims);
    return fake.trail;
  };

  it('sends the claims that waited one by one to a ledger that does not list claims-batch', async () => {
    expect(await fourClaims([])).toEqual(['claims', 'claims', 'claims', 'claims']);
  });

  it('batches them for a ledger that lists it', async () => {
    expect(await fourClaims(['claims-batch'])).toEqual(['claims', 'claims/batch']);
  });
});
