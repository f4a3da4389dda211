// The broker adapters' ack/nack decisions per runOnce outcome (docs/consumers-*.md), against
// fake channels, jobs and messages: nothing is lost (every outcome is acked only once the ledger
// recorded it, or left to recovery) and nothing is requeued in a tight loop.
import { jest } from '@jest/globals';
import {
  AwaitingRecoveryError,
  InProgressError,
  JobFailedError,
  LeaseLostError,
  LedgerUnavailableError,
  PayloadConflictError,
  retryDelayMs,
  verdictFor,
  type RecordedOutcome,
  type RunResult,
} from '@operation-ledger/client';
import { consumeWithLedger as consumeAmqp } from '@operation-ledger/client/amqp';
import { ledgerProcessor } from '@operation-ledger/client/bullmq';
import { consumeWithLedger as consumeJs } from '@operation-ledger/client/jetstream';
import { DelayedError, UnrecoverableError } from 'bullmq';

const problem = (status: number, code: string) => ({
  type: `x/${code}`,
  title: code,
  status,
  code,
  detail: code,
});
const ran = (status: 'executed' | 'replayed'): RunResult => ({
  status,
  operationId: 'op-1',
  state: 'confirmed',
  outcome: { destinationRef: 'D-1', outputs: null },
});
const jobFailed = (recorded: RecordedOutcome) =>
  new JobFailedError({ operationId: 'op-1', attempt: 1, recorded, startedSteps: [], cause: new Error('x') });
const OPERATION = { tenant: 'acme', source: 'queue', action: 'invoice.create' };

describe('verdictFor: one verdict per runOnce outcome', () => {
  it.each([
    ['executed', { result: ran('executed') }, { action: 'ack', outcome: 'executed' }],
    ['replayed', { result: ran('replayed') }, { action: 'ack', outcome: 'replayed' }],
    ['final failure', { error: jobFailed('failed-final') }, { action: 'ack', outcome: 'failed-final' }],
    ['unknown (left to recovery)', { error: jobFailed('unknown') }, { action: 'ack', outcome: 'unknown' }],
    [
      'awaiting recovery',
      { error: new AwaitingRecoveryError(problem(409, 'awaiting-recovery'), 'POST') },
      { action: 'ack', outcome: 'unknown' },
    ],
    [
      'payload conflict (audited)',
      { error: new PayloadConflictError(problem(422, 'payload-conflict'), 'POST') },
      { action: 'ack', outcome: 'payload-conflict' },
    ],
    ['retryable failure', { error: jobFailed('failed-retryable') }, { action: 'retry' }],
    ['not recorded', { error: jobFailed('not-recorded') }, { action: 'retry' }],
    ['lease lost', { error: new LeaseLostError(problem(409, 'stale-token'), 'POST') }, { action: 'retry' }],
    [
      'ledger unavailable',
      { error: new LedgerUnavailableError('POST /v1/claims', 3, null, new Error('ECONNREFUSED')) },
      { action: 'retry' },
    ],
    [
      'in progress elsewhere',
      { error: new InProgressError(problem(409, 'in-progress'), 'POST', 4_000) },
      { action: 'delay', delayMs: 4_000 },
    ],
  ] as const)('%s', (_name, settled, expected) => {
    expect(verdictFor(settled as never)).toMatchObject(expected);
  });

  it('in progress with 0 ms left is delayed, never a tight requeue loop', () => {
    const v = verdictFor({ error: new InProgressError(problem(409, 'in-progress'), 'POST', 0) });
    expect(v).toMatchObject({ action: 'delay', delayMs: 250 });
  });

  it('retry backoff doubles per delivery, with jitter in [d/2, d], capped', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, {}, () => 1))).toEqual([1_000, 2_000, 4_000]);
    expect(retryDelayMs(2, {}, () => 0)).toBe(1_000);
    expect(retryDelayMs(30, { maxMs: 60_000 }, () => 1)).toBe(60_000);
  });
});

/** A client whose runOnce settles as scripted. */
const clientThat = (settle: () => Promise<RunResult>) => ({
  runOnce: jest.fn<(key: unknown, payload: unknown) => Promise<RunResult>>(settle),
});

describe('AMQP adapter', () => {
  const fakeChannel = () => {
    const calls: string[] = [];
    let deliver: (msg: unknown) => void = () => {};
    const channel = {
      consume: async (_q: string, cb: (msg: unknown) => void) => ((deliver = cb), { consumerTag: 't' }),
      cancel: async () => ({}),
      ack: () => calls.push('ack'),
      nack: (_m: unknown, _all: boolean, requeue: boolean) => calls.push(requeue ? 'requeue' : 'dead-letter'),
    };
    const msg = (messageId?: string, body = '{"n":1}') => ({
      content: Buffer.from(body),
      fields: { redelivered: false },
      properties: { messageId, headers: {} },
    });
    return { channel, calls, deliver: (m: unknown) => deliver(m), msg };
  };
  const settleOne = async (
    settle: () => Promise<RunResult>,
    messageId: string | null = 'm-1',
    body?: string,
  ) => {
    const f = fakeChannel();
    const client = clientThat(settle);
    await consumeAmqp(f.channel as never, 'q', {
      client,
      operation: OPERATION,
      job: () => ({}),
      backoff: { baseMs: 1, maxMs: 1 },
    });
    f.deliver(f.msg(messageId ?? undefined, body));
    for (let i = 0; i < 100 && f.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    return { calls: f.calls, client };
  };

  it('acks an executed message; key = operation + message-id, payload = the JSON body', async () => {
    const { calls, client } = await settleOne(async () => ran('executed'));
    expect(calls).toEqual(['ack']);
    expect(client.runOnce.mock.calls[0]!.slice(0, 2)).toEqual([{ ...OPERATION, subject: 'm-1' }, { n: 1 }]);
  });

  it('requeues a retryable failure after its backoff; acks an unknown (recovery decides)', async () => {
    expect((await settleOne(() => Promise.reject(jobFailed('failed-retryable')))).calls).toEqual(['requeue']);
    expect((await settleOne(() => Promise.reject(jobFailed('unknown')))).calls).toEqual(['ack']);
  });

  it('dead-letters a message without message-id or with a body that is no JSON (the job never runs)', async () => {
    const noId = await settleOne(async () => ran('executed'), null);
    const notJson = await settleOne(async () => ran('executed'), 'm-2', '{');
    expect([noId.calls, notJson.calls]).toEqual([['dead-letter'], ['dead-letter']]);
    expect(noId.client.runOnce).not.toHaveBeenCalled();
  });
});

describe('BullMQ adapter', () => {
  const fakeJob = () => {
    const delayedTo: number[] = [];
    const job = {
      id: 'j-1',
      data: { n: 1 },
      attemptsStarted: 1,
      attemptsMade: 0,
      moveToDelayed: async (ts: number) => void delayedTo.push(ts),
    };
    return { job, delayedTo };
  };

  it('returns the outcome (job completes) when the ledger recorded one', async () => {
    const { job } = fakeJob();
    const client = clientThat(async () => ran('replayed'));
    const out = await ledgerProcessor({ client, operation: OPERATION, job: () => ({}) })(job as never, 'tok');
    expect(out).toEqual({ outcome: 'replayed', operationId: 'op-1' });
    expect(client.runOnce.mock.calls[0]![0]).toEqual({ ...OPERATION, subject: 'j-1' });
  });

  it('moves the job to delayed (attempts not spent) when in progress elsewhere', async () => {
    const { job, delayedTo } = fakeJob();
    const client = clientThat(() =>
      Promise.reject(new InProgressError(problem(409, 'in-progress'), 'POST', 3_000)),
    );
    const before = Date.now();
    const run = ledgerProcessor({ client, operation: OPERATION, job: () => ({}) })(job as never, 'tok');
    await expect(run).rejects.toBeInstanceOf(DelayedError);
    expect(delayedTo[0]! - before).toBeGreaterThanOrEqual(3_000);
  });

  it('fails a job that has no usable key for good (UnrecoverableError)', async () => {
    const client = clientThat(async () => ran('executed'));
    const run = ledgerProcessor({ client, job: () => ({}) })(fakeJob().job as never, 'tok');
    await expect(run).rejects.toBeInstanceOf(UnrecoverableError);
  });
});

describe('JetStream adapter', () => {
  const fakeMsg = (msgId: string, released?: string) => {
    const calls: string[] = [];
    const h = new Map([
      ['Nats-Msg-Id', msgId],
      ...(released ? [['Ledger-Key-Subject', released] as const] : []),
    ]);
    return {
      calls,
      msg: {
        data: Buffer.from('{"n":1}'),
        headers: { get: (k: string) => h.get(k) ?? '' },
        info: { redeliveryCount: 1 },
        working: () => {},
        ackAck: async () => (calls.push('ack'), true),
        nak: (ms: number) => calls.push(`nak ${ms}`),
        term: () => calls.push('term'),
      },
    };
  };
  const run = async (settle: () => Promise<RunResult>, msgs: ReturnType<typeof fakeMsg>[]) => {
    const client = clientThat(settle);
    const consumer = {
      consume: async () => ({
        async *[Symbol.asyncIterator]() {
          for (const m of msgs) yield m.msg;
        },
        close: async () => {},
      }),
    };
    const c = await consumeJs(consumer as never, { client, operation: OPERATION, job: () => ({}) });
    await c.done;
    return client;
  };

  it('acks a replay; the key prefers Ledger-Key-Subject (a re-enqueue) to Nats-Msg-Id', async () => {
    const original = fakeMsg('m-1');
    const requeued = fakeMsg('other', 'm-1');
    const client = await run(async () => ran('replayed'), [original, requeued]);
    expect([original.calls, requeued.calls]).toEqual([['ack'], ['ack']]);
    expect(client.runOnce.mock.calls.map((c) => (c[0] as { subject: string }).subject)).toEqual([
      'm-1',
      'm-1',
    ]);
  });

  it('naks in progress with the holder’s lease left as the delay', async () => {
    const m = fakeMsg('m-2');
    await run(() => Promise.reject(new InProgressError(problem(409, 'in-progress'), 'POST', 2_500)), [m]);
    expect(m.calls).toEqual(['nak 2500']);
  });
});
