// Errors that prove a step's request never left: runOnce states the step not performed and fails
// retryably (the broker redelivers) instead of reporting unknown (a recovery pass for nothing).
import {
  JobFailedError,
  LedgerClient,
  NOT_SENT_CODES,
  provesNotSent,
  reportFor,
  type Job,
} from '@operation-ledger/client';
import { FakeLedger, problem } from './support/fake-ledger.js';

const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:1' };
const client = (fake: FakeLedger) =>
  new LedgerClient({ baseUrl: 'http://ledger.test', token: 't', fetch: fake.fetch, shortcuts: false });
const run = (fake: FakeLedger, job: Job, classifyError?: () => 'not-sent' | 'retryable' | undefined) =>
  client(fake)
    .runOnce(key, {}, job, { classifyError })
    .then(
      () => null,
      (e: unknown) => e as JobFailedError,
    );
const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });
/** What fetch throws on a refused connection: TypeError('fetch failed') with the socket's error as cause. */
const fetchFailed = (code: string) => new TypeError('fetch failed', { cause: withCode(code) });

describe('provesNotSent (the default classification)', () => {
  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'CERT_HAS_EXPIRED'])(
    '%s, also as the cause of fetch failed: proves nothing was sent',
    (code) => {
      expect(NOT_SENT_CODES.has(code)).toBe(true);
      expect(provesNotSent(withCode(code))).toBe(true);
      expect(provesNotSent(fetchFailed(code))).toBe(true);
    },
  );

  it.each(['ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT'])(
    '%s: may have been sent, so no proof',
    (code) => expect(provesNotSent(fetchFailed(code))).toBe(false),
  );

  it('an AggregateError proves it only when every connect attempt was refused', () => {
    const refused = new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]);
    const mixed = new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNRESET')]);
    expect([provesNotSent(refused), provesNotSent(mixed), provesNotSent('ECONNREFUSED')]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('runOnce after a not-sent error in a step', () => {
  const refusedStep: Job = async (op) => {
    await op.step('create', () => {
      throw fetchFailed('ECONNREFUSED');
    });
  };

  it('states the step not performed, then records a retryable failure (no unknown)', async () => {
    const fake = new FakeLedger();
    const err = await run(fake, refusedStep);
    expect(err).toMatchObject({ recorded: 'failed-retryable', startedSteps: ['create'] });
    expect(fake.trail).toEqual(['claims', 'steps/create/start', 'steps/create/not-performed', 'fail']);
    expect(fake.sent('/not-performed')[0]!.body).toEqual({
      fencingToken: 1,
      reason: 'TypeError: fetch failed',
    });
    expect(fake.sent('/fail')[0]!.body).toMatchObject({ retryable: true, error: { code: 'TypeError' } });
  });

  it("classifyError overrides the default: 'retryable' keeps it unknown, 'not-sent' claims it", async () => {
    const kept = new FakeLedger();
    expect(await run(kept, refusedStep, () => 'retryable')).toMatchObject({ recorded: 'unknown' });
    expect(kept.sent('/not-performed')).toHaveLength(0);
    const claimed = new FakeLedger();
    const custom: Job = async (op) => {
      await op.step('create', () => {
        throw new Error('proxy said: upstream unreachable, request not forwarded');
      });
    };
    expect(await run(claimed, custom, () => 'not-sent')).toMatchObject({ recorded: 'failed-retryable' });
  });

  it('after a completed step of this attempt it stays unknown (only one unfinished step can be vouched for)', async () => {
    const fake = new FakeLedger();
    const err = await run(fake, async (op) => {
      await op.step('render', () => 'pdf');
      await op.step('create', () => {
        throw withCode('ECONNREFUSED');
      });
    });
    expect(err).toMatchObject({ recorded: 'unknown' });
    expect(fake.sent('/not-performed')).toHaveLength(0);
  });

  it('when the ledger refuses the statement (outcome-uncertain), it reports unknown', async () => {
    const fake = new FakeLedger().on('POST /not-performed', () => problem(409, 'outcome-uncertain'));
    expect(await run(fake, refusedStep)).toMatchObject({ recorded: 'unknown' });
    expect(fake.trail.slice(-2)).toEqual(['steps/create/not-performed', 'unknown']);
  });

  it('the mapping is pure: an error after no step is a plain retryable failure', () => {
    const report = reportFor({ error: withCode('ECONNREFUSED'), startedSteps: 0, cancelled: false });
    expect(report).toMatchObject({ kind: 'fail', retryable: true });
  });
});
