// The outcome-mapping rule of runOnce, against a scripted ledger behind an injected fetch: what
// the SDK sends after a job returns, throws, times out or is cancelled — before and after a step.
import { jest } from '@jest/globals';
import {
  AwaitingRecoveryError,
  FinalError,
  InProgressError,
  JobFailedError,
  LedgerClient,
  LedgerUnavailableError,
  PayloadConflictError,
  type Job,
} from '@operation-ledger/client';
import { FakeLedger, OP, acquired, json, problem } from './support/fake-ledger.js';

const key = { tenant: 'acme', source: 'shop', action: 'invoice.create', subject: 'order:1' };
const client = (fake: FakeLedger, shortcuts = false) =>
  new LedgerClient({
    baseUrl: 'http://ledger.test',
    token: 't',
    fetch: fake.fetch,
    shortcuts,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
const failed = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as JobFailedError,
  );

describe('runOnce outcome mapping', () => {
  it('confirms with the returned reference and outputs when the job returns', async () => {
    const fake = new FakeLedger();
    const r = await client(fake).runOnce(key, { total: 1 }, async (op) => {
      const ref = await op.step('create', (pk) => `INV-${pk}`);
      return { destinationRef: ref, outputs: { invoiceId: ref } };
    });
    expect(r).toMatchObject({ status: 'executed', operationId: OP, outcome: { destinationRef: 'INV-pk-1' } });
    expect(fake.trail).toEqual(['claims', 'steps/create/start', 'steps/create/complete', 'confirm']);
    expect(fake.sent('/confirm')[0]!.body).toEqual({
      fencingToken: 1,
      destinationRef: 'INV-pk-1',
      outputs: { invoiceId: 'INV-pk-1' },
    });
    expect(fake.sent('/complete')[0]!.body).toEqual({ fencingToken: 1, outputs: 'INV-pk-1' });
  });

  it('reports a retryable failure when the job throws before any step started', async () => {
    const fake = new FakeLedger();
    const err = await failed(
      client(fake).runOnce(key, {}, () => {
        throw new Error('bad input');
      }),
    );
    expect(err).toBeInstanceOf(JobFailedError);
    expect(err).toMatchObject({ recorded: 'failed-retryable', startedSteps: [] });
    expect(fake.sent('/fail')[0]!.body).toMatchObject({
      retryable: true,
      error: { message: 'Error: bad input' },
    });
    expect(fake.sent('/unknown')).toHaveLength(0);
  });

  it('reports a final failure for FinalError and for errors the classifier calls final', async () => {
    const fake = new FakeLedger();
    const c = client(fake);
    await failed(
      c.runOnce(key, {}, () => {
        throw new FinalError('customer blocked', { code: 'blocked' });
      }),
    );
    await failed(
      c.runOnce(
        key,
        {},
        () => {
          throw new RangeError('no');
        },
        { classifyError: (e) => (e instanceof RangeError ? 'final' : undefined) },
      ),
    );
    expect(fake.sent('/fail').map((r) => [r.body.retryable, r.body.error.code])).toEqual([
      [false, 'blocked'],
      [false, 'RangeError'],
    ]);
  });

  it('reports unknown, never a retryable failure, when the job throws after a step started', async () => {
    const fake = new FakeLedger();
    const err = await failed(
      client(fake).runOnce(key, {}, async (op) => {
        await op.step('create', () => {
          throw new Error('socket hang up');
        });
      }),
    );
    expect(err).toMatchObject({ recorded: 'unknown', startedSteps: ['create'] });
    expect(fake.sent('/unknown')[0]!.body).toEqual({ fencingToken: 1, reason: 'Error: socket hang up' });
    expect(fake.sent('/fail')).toHaveLength(0);
  });

  it('reports unknown when an error comes after a completed step, and records that completion first', async () => {
    const fake = new FakeLedger();
    const err = await failed(
      client(fake, true).runOnce(key, {}, async (op) => {
        await op.step('create', () => 'INV-1');
        throw new Error('mail server down');
      }),
    );
    expect(err).toMatchObject({ recorded: 'unknown' });
    expect(fake.trail).toEqual(['claims', 'steps/create/start', 'steps/create/complete', 'unknown']);
  });

  it('reports unknown when the job times out after a step started, and refuses its late steps', async () => {
    const fake = new FakeLedger();
    let late: unknown;
    let release!: () => void;
    const stalled = new Promise<void>((r) => (release = r));
    const err = await failed(
      client(fake).runOnce(
        key,
        {},
        async (op) => {
          await op.step('create', async () => stalled);
          await op.step('mail', () => 'sent').catch((e: unknown) => (late = e));
        },
        { timeoutMs: 50 },
      ),
    );
    expect(err).toMatchObject({ recorded: 'unknown' });
    expect((err!.cause as Error).name).toBe('JobTimeoutError');
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect((late as Error).name).toBe('OperationClosedError');
    expect(fake.sent('/steps/mail/start')).toHaveLength(0);
  });

  it('releases when the caller cancels before any step started', async () => {
    const fake = new FakeLedger();
    const stop = new AbortController();
    const err = await failed(
      client(fake).runOnce(
        key,
        {},
        async (op) => {
          stop.abort(new Error('shutting down'));
          op.signal.throwIfAborted();
        },
        { signal: stop.signal },
      ),
    );
    expect(err).toMatchObject({ recorded: 'released' });
    expect(fake.sent('/release')).toHaveLength(1);
  });

  it('falls back to unknown when the ledger answers outcome-uncertain to a failure', async () => {
    const fake = new FakeLedger().on('POST /fail', () => problem(409, 'outcome-uncertain'));
    const err = await failed(
      client(fake).runOnce(key, {}, () => {
        throw new Error('x');
      }),
    );
    expect(err).toMatchObject({ recorded: 'unknown' });
  });

  it('retries a confirm whose answer was lost with the same body', async () => {
    const fake = new FakeLedger().on(
      'POST /confirm',
      () => Promise.reject(new TypeError('fetch failed')),
      () => problem(503, 'store-unavailable', {}, { 'Retry-After': '0' }),
    );
    const r = await client(fake).runOnce(key, {}, () => ({ destinationRef: 'INV-9' }));
    expect(r.status).toBe('executed');
    const bodies = fake.sent('/confirm').map((q) => q.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  it('gives up with LedgerUnavailableError after the bounded retries of 503', async () => {
    const fake = new FakeLedger();
    for (let i = 0; i < 5; i++)
      fake.on('POST /v1/claims', () => problem(503, 'store-unavailable', {}, { 'Retry-After': '1' }));
    const err = await client(fake)
      .runOnce(key, {}, () => undefined)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerUnavailableError);
    expect(err).toMatchObject({ attempts: 5, status: 503 });
  });

  it('throws typed refusals of the claim, with what the caller needs', async () => {
    const fake = new FakeLedger()
      .on('POST /v1/claims', () =>
        problem(422, 'payload-conflict', { existingFingerprint: 'a', incomingFingerprint: 'b' }),
      )
      .on('POST /v1/claims', () => problem(409, 'awaiting-recovery'))
      .on('POST /v1/claims', () =>
        problem(409, 'in-progress', { retryAfterMs: 1234 }, { 'Retry-After': '2' }),
      );
    const c = client(fake);
    const job = jest.fn<Job>();
    const errors = [];
    for (let i = 0; i < 3; i++) errors.push(await c.runOnce(key, {}, job).catch((e: unknown) => e));
    expect(errors[0]).toBeInstanceOf(PayloadConflictError);
    expect(errors[0]).toMatchObject({ existingFingerprint: 'a', incomingFingerprint: 'b' });
    expect(errors[1]).toBeInstanceOf(AwaitingRecoveryError);
    expect(errors[2]).toBeInstanceOf(InProgressError);
    expect(errors[2]).toMatchObject({ retryAfterMs: 1234 });
    expect(job).not.toHaveBeenCalled();
  });

  it('waits while in progress, then returns the replayed outcome', async () => {
    const fake = new FakeLedger()
      .on('POST /v1/claims', () => problem(409, 'in-progress', { retryAfterMs: 5 }))
      .on('POST /v1/claims', () =>
        json(200, {
          operationId: OP,
          state: 'confirmed',
          replayed: true,
          outcome: { destinationRef: 'INV-1', outputs: null },
        }),
      );
    const job = jest.fn<Job>();
    const r = await client(fake).runOnce(key, {}, job, { waitIfInProgress: { timeoutMs: 5_000 } });
    expect(r).toMatchObject({ status: 'replayed', outcome: { destinationRef: 'INV-1' } });
    expect(job).not.toHaveBeenCalled();
  });

  it('returns a step completed by an earlier attempt from its recorded outputs, without running it', async () => {
    const fake = new FakeLedger()
      .on('POST /v1/claims', () =>
        acquired({
          attempt: 2,
          fencingToken: 2,
          completedSteps: [{ step: 'create', providerIdempotencyKey: 'pk' }],
        }),
      )
      .on('GET /v1/operations/' + OP, () =>
        json(200, {
          operationId: OP,
          steps: [{ step: 'create', status: 'completed', attempt: 1, outputs: { invoiceId: 'INV-7' } }],
        }),
      );
    const create = jest.fn((_pk: string) => null);
    const r = await client(fake).runOnce(key, {}, async (op) => {
      const inv = await op.step('create', create);
      return { destinationRef: (inv as any).invoiceId };
    });
    expect(create).not.toHaveBeenCalled();
    expect(r.outcome.destinationRef).toBe('INV-7');
    expect(fake.sent('/start')).toHaveLength(0);
  });
});

describe('round-trip shortcuts', () => {
  it('uses claim+startStep and confirm+completeStep when the ledger answers with them: 2 requests', async () => {
    const fake = new FakeLedger().on('POST /v1/claims', (req) =>
      acquired({ startedStep: { name: req.body.startStep, providerIdempotencyKey: 'pk-s' } }),
    );
    const r = await client(fake, true).runOnce(
      key,
      {},
      async (op) => ({ destinationRef: await op.step('create', (pk) => pk) }),
      {
        firstStep: 'create',
      },
    );
    expect(r.outcome.destinationRef).toBe('pk-s');
    expect(fake.trail).toEqual(['claims', 'confirm']);
    expect(fake.sent('/confirm')[0]!.body).toEqual({
      fencingToken: 1,
      destinationRef: 'pk-s',
      completeStep: { name: 'create', outputs: 'pk-s' },
    });
  });

  it("keeps the shortcut for the README's shape (a step, then return) and under a timeout", async () => {
    for (const timeoutMs of [undefined, 60_000]) {
      const fake = new FakeLedger();
      await client(fake, true).runOnce(
        key,
        {},
        async (op) => {
          const invoice = await op.step('create', () => ({ id: 'INV-1' }));
          return { destinationRef: invoice.id, outputs: invoice };
        },
        { timeoutMs },
      );
      expect(fake.trail).toEqual(['claims', 'steps/create/start', 'confirm']);
      expect(fake.sent('/confirm')[0]!.body.completeStep).toEqual({
        name: 'create',
        outputs: { id: 'INV-1' },
      });
    }
  });

  it('sends the completion as soon as the job waits on anything after the step, before the job resumes', async () => {
    // A process that dies while the job waits must leave the step completed, so that a re-run
    // gets its recorded outputs instead of the operation going unknown.
    const fake = new FakeLedger();
    let seenWhileWaiting: string[] = [];
    await client(fake, true).runOnce(key, {}, async (op) => {
      await op.step('create', () => 'INV-1');
      await new Promise((r) => setTimeout(r, 1));
      seenWhileWaiting = [...fake.trail];
      return { destinationRef: 'INV-1' };
    });
    expect(seenWhileWaiting).toEqual(['claims', 'steps/create/start', 'steps/create/complete']);
    expect(fake.trail).toEqual(['claims', 'steps/create/start', 'steps/create/complete', 'confirm']);
    expect(fake.sent('/confirm')[0]!.body.completeStep).toBeUndefined();
  });

  it('falls back to the 3-request protocol when an older ledger refuses the fields, and remembers it', async () => {
    const refuse = (field: string) => () =>
      problem(400, 'validation', { errors: [{ field, message: `property ${field} should not exist` }] });
    const fake = new FakeLedger()
      .on('POST /v1/claims', refuse('startStep'))
      .on('POST /confirm', refuse('completeStep'));
    const c = client(fake, true);
    const job = async (op: any) => ({ destinationRef: await op.step('create', () => 'INV-1') });
    await c.runOnce(key, {}, job, { firstStep: 'create' });
    expect(fake.trail).toEqual([
      'claims',
      'claims',
      'steps/create/start',
      'confirm',
      'steps/create/complete',
      'confirm',
    ]);
    fake.requests.length = 0;
    await c.runOnce(key, {}, job, { firstStep: 'create' });
    expect(fake.trail).toEqual(['claims', 'steps/create/start', 'steps/create/complete', 'confirm']);
  });
});
