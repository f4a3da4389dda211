// What the SDK reports must be what the ledger accepts, a confirm refused after the effect was
// recorded by the next attempt is no lost lease, and a fetch error from another realm is still a
// network error. Scripted ledger behind an injected fetch.
import { runInNewContext } from 'node:vm';
import {
  JobFailedError,
  JobTimeoutError,
  LeaseLostError,
  LedgerClient,
  LedgerUnavailableError,
  reportFor,
  type FetchLike,
} from '@operation-ledger/client';
import { FakeLedger, OP, acquired, json, problem } from './support/fake-ledger.js';

const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:1', revision: 1 };
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The ledger's own refusal rule for reported text (its DTOs): length in UTF-16 units, storable. */
function acceptable(text: string, min: number): boolean {
  return text.length >= min && text.length <= 4096 && !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

describe('failure reports within the ledger’s limits', () => {
  it('a long message ending in an astral character is cut at a code point, within 4 096 units', () => {
    const report = reportFor({
      error: new Error('x'.repeat(4088) + '😀tail'),
      startedSteps: 1,
      cancelled: false,
    });
    expect(report.kind).toBe('unknown');
    const reason = (report as { reason: string }).reason;
    expect(acceptable(reason, 1)).toBe(true);
    expect(reason.startsWith('Error: xxx')).toBe(true);
  });

  it('an unknown says it timed out only for a timeout, so the ledger labels it true', () => {
    const report = (error: unknown) => reportFor({ error, startedSteps: 1, cancelled: false });
    expect(report(new JobTimeoutError(1000))).toMatchObject({ kind: 'unknown', timedOut: true });
    expect(report(new DOMException('signal timed out', 'TimeoutError'))).toMatchObject({ timedOut: true });
    expect(report(Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }))).toMatchObject({
      timedOut: true,
    });
    expect(report(new Error('billing 500'))).toMatchObject({ kind: 'unknown', timedOut: false });
    expect(report(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toMatchObject({
      timedOut: false,
    });
  });

  it('the release reason with its prefix stays within 4 096 units', () => {
    const report = reportFor({ error: new Error('y'.repeat(4090)), startedSteps: 0, cancelled: true });
    expect(report).toMatchObject({ kind: 'release' });
    const reason = (report as { reason: string }).reason;
    expect(acceptable(reason, 0)).toBe(true);
    expect(reason.startsWith('cancelled before any step started: Error: yyy')).toBe(true);
  });

  it('U+0000 and lone surrogates are replaced; the code is storable too', () => {
    const error = Object.assign(new Error('bad\u0000byte \ud800 end'), { name: 'Bad\u0000Name' });
    const report = reportFor({ error, startedSteps: 0, cancelled: false });
    expect(report).toMatchObject({ kind: 'fail', retryable: true });
    const { code, message } = report as { code: string; message: string };
    expect(acceptable(message, 0)).toBe(true);
    expect(message).toContain('bad\ufffdbyte');
    expect(code.includes('\u0000')).toBe(false);
  });

  it('an error from another realm keeps its name and message', () => {
    const error = runInNewContext('new RangeError("from a vm context")') as unknown;
    const report = reportFor({ error, startedSteps: 0, cancelled: false });
    expect(report).toMatchObject({ code: 'RangeError', message: 'RangeError: from a vm context' });
  });
});

describe('a confirm refused stale-token after the next attempt recorded this job’s effect', () => {
  const confirmedBy = (destinationRef: string, stepAttempt = 1) =>
    json(200, {
      operationId: OP,
      key,
      state: 'confirmed',
      attempt: 2,
      fencingToken: 2,
      steps: [{ step: 'call', status: 'completed', attempt: stepAttempt, providerIdempotencyKey: 'pk-1' }],
      destinationRef,
      confirmation: { destinationRef, outputs: { id: destinationRef }, attempt: 2, via: 'worker' },
      revision: 5,
    });
  const client = (fake: FakeLedger) =>
    new LedgerClient({ baseUrl: 'http://ledger.test', fetch: fake.fetch, shortcuts: false });
  const job = async (op: { step: <T>(n: string, fn: () => T) => Promise<T> }) => {
    await op.step('call', () => ({ id: 'ref-1' }));
    return { destinationRef: 'ref-1' };
  };

  it('same reference, a step started by this attempt: executed, with the recorded outcome', async () => {
    const fake = new FakeLedger()
      .on('POST /confirm', () => problem(409, 'stale-token'))
      .on('GET /v1/operations/' + OP, () => confirmedBy('ref-1'));
    const r = await client(fake).runOnce(key, {}, job);
    expect(r).toMatchObject({
      status: 'executed',
      state: 'confirmed',
      attempt: 1,
      outcome: { destinationRef: 'ref-1', outputs: { id: 'ref-1' } },
    });
  });

  it('same reference, every step completed by an earlier attempt: replayed', async () => {
    const fake = new FakeLedger()
      .on('POST /v1/claims', () =>
        acquired({
          completedSteps: [{ step: 'call', providerIdempotencyKey: 'pk-1', outputs: { id: 'ref-1' } }],
        }),
      )
      .on('POST /confirm', () => problem(409, 'stale-token'))
      .on('GET /v1/operations/' + OP, () => confirmedBy('ref-1', 1));
    expect(await client(fake).runOnce(key, {}, job)).toMatchObject({ status: 'replayed' });
    expect(fake.sent('/start')).toHaveLength(0);
  });

  it('another reference: the refusal stands (LeaseLostError)', async () => {
    const fake = new FakeLedger()
      .on('POST /confirm', () => problem(409, 'stale-token'))
      .on('GET /v1/operations/' + OP, () => confirmedBy('ref-OTHER'));
    await expect(client(fake).runOnce(key, {}, job)).rejects.toBeInstanceOf(LeaseLostError);
  });
});

describe('a fetch error from another realm is a network error', () => {
  const foreign = () => runInNewContext('new TypeError("fetch failed")') as Error;
  it('is retried', async () => {
    let calls = 0;
    const fetch: FetchLike = async () => {
      if (++calls === 1) throw foreign();
      return json(200, { ok: true });
    };
    const sdk = new LedgerClient({ baseUrl: 'http://ledger.test', fetch, retry: { baseDelayMs: 1 } });
    expect((await sdk.transport.request('GET', '/v1/x')).body).toEqual({ ok: true });
    expect(calls).toBe(2);
  });
  it('ends as LedgerUnavailableError after the retries', async () => {
    const fetch: FetchLike = () => Promise.reject(foreign());
    const sdk = new LedgerClient({
      baseUrl: 'http://ledger.test',
      fetch,
      retry: { attempts: 2, baseDelayMs: 1 },
    });
    await expect(sdk.transport.request('GET', '/v1/x')).rejects.toBeInstanceOf(LedgerUnavailableError);
  });
});

describe('a job that returns something other than { destinationRef?, outputs? }', () => {
  // A new user's JavaScript job returned the invoice id as a string: the operation was confirmed
  // with no reference and nothing said so. The effect happened, so the outcome is reported unknown
  // (never a retryable failure, which would let a re-run create a second invoice), with the reason.
  const client = (fake: FakeLedger) =>
    new LedgerClient({ baseUrl: 'http://ledger.test', fetch: fake.fetch, shortcuts: false });

  it.each([
    ['a string', 'INV-1'],
    ['an array', ['INV-1']],
    ['an object without destinationRef or outputs', { invoiceId: 'INV-1' }],
    ['a destinationRef that is not a string', { destinationRef: 42 }],
  ])('%s: reported unknown with the expected shape, not confirmed', async (_what, returned) => {
    const fake = new FakeLedger();
    const run = client(fake).runOnce(key, {}, (async () => returned) as never);
    await expect(run).rejects.toBeInstanceOf(JobFailedError);
    await expect(run).rejects.toMatchObject({ recorded: 'unknown' });
    expect(fake.sent('/confirm')).toHaveLength(0);
    const [report] = fake.sent('/unknown');
    expect(report?.body).toMatchObject({ reason: expect.stringContaining('destinationRef') });
  });

  it.each([
    ['nothing', undefined],
    ['an empty object', {}],
    ['the two fields and more', { destinationRef: 'INV-2', outputs: { n: 1 }, extra: true }],
  ])('%s: confirmed as before', async (_what, returned) => {
    const fake = new FakeLedger();
    const r = await client(fake).runOnce(key, {}, (async () => returned) as never);
    expect(r).toMatchObject({ status: 'executed' });
    expect(fake.sent('/confirm')).toHaveLength(1);
    expect(fake.sent('/unknown')).toHaveLength(0);
  });
});
