import {
  OPERATION_ID_NAMESPACE,
  canonicalKey,
  providerIdempotencyKey,
  stepNameIssue,
  type LedgerEvent,
} from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  KEY,
  LEASE_MS,
  PREP_STEP,
  T0,
  at,
  claim,
  claimed,
  completeStep,
  history,
  iso,
  pik,
  referenceUuidV5,
  startStep,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('provider idempotency key', () => {
  it('is the UUID v5 of "<canonical key>#step:<step>" in the operationId namespace (a client can compute it)', () => {
    const expected = referenceUuidV5(
      'acme-gmbh/shopify/invoice.create/order%3A812@1#step:create-invoice',
      OPERATION_ID_NAMESPACE,
    );
    expect(providerIdempotencyKey(KEY, EFFECT_STEP)).toBe(expected);
    expect(`${canonicalKey(KEY)}#step:${EFFECT_STEP}`).toBe(
      'acme-gmbh/shopify/invoice.create/order%3A812@1#step:create-invoice',
    );
    expect(expected).toMatch(UUID_V5);
  });

  it('is deterministic, differs per step, per key revision and per tenant', () => {
    const k = providerIdempotencyKey(KEY, EFFECT_STEP);
    expect(providerIdempotencyKey({ ...KEY }, EFFECT_STEP)).toBe(k);
    const others = [
      providerIdempotencyKey(KEY, PREP_STEP),
      providerIdempotencyKey({ ...KEY, revision: 2 }, EFFECT_STEP),
      providerIdempotencyKey({ ...KEY, tenant: 'other-gmbh' }, EFFECT_STEP),
    ];
    expect(new Set([k, ...others]).size).toBe(4);
  });
});

describe('step names', () => {
  it.each(['create-invoice', 'a', 'stripe:charge.v2', 'A_Z-0.9:x', 'x'.repeat(128)])('accepts %j', (name) => {
    expect(stepNameIssue(name)).toBeNull();
  });
  it.each(['', 'x'.repeat(129), 'has space', 'a/b', 'é', 'a?b', 'a#b'])('refuses %j', (name) => {
    expect(stepNameIssue(name)).toEqual({ field: 'step', message: expect.stringContaining('1-128') });
  });
});

describe('StartStep', () => {
  it('records StepStarted with the provider idempotency key and answers it', () => {
    const spec = given(history.inProgress()).when(startStep(EFFECT_STEP, 1, at(2)));
    expect(spec.decision.events).toEqual([stepStarted(EFFECT_STEP, 1, at(2))]);
    spec
      .thenResult({ state: 'in_progress', providerIdempotencyKey: pik(EFFECT_STEP), alreadyRecorded: false })
      .thenAudit([])
      .thenState({
        steps: {
          [EFFECT_STEP]: {
            name: EFFECT_STEP,
            status: 'started',
            attempt: 1,
            providerIdempotencyKey: pik(EFFECT_STEP),
            startedAt: iso(at(2)),
            completedAt: null,
            outputs: null,
          },
        },
      });
  });

  it('a repeated start in the same attempt writes nothing and answers the same key', () => {
    given(history.stepRunning())
      .when(startStep(EFFECT_STEP, 1, at(3)))
      .thenNothingHappened()
      .thenResult({ state: 'in_progress', providerIdempotencyKey: pik(EFFECT_STEP), alreadyRecorded: true });
  });

  it('the key is stable across attempts: attempt 2 gets the key attempt 1 got, in a new StepStarted', () => {
    const attempt1 = given(history.inProgress()).when(startStep(EFFECT_STEP, 1, at(1)));
    const history2: LedgerEvent[] = [...history.resolvedNotFound(), claimed(2, at(70))];
    const attempt2 = given(history2)
      .when(startStep(EFFECT_STEP, 2, at(71)))
      .then([
        {
          type: 'StepStarted',
          data: { attempt: 2, step: EFFECT_STEP, providerIdempotencyKey: pik(EFFECT_STEP) },
        },
      ])
      .thenResult({ alreadyRecorded: false })
      .thenState({ steps: { [EFFECT_STEP]: { status: 'started', attempt: 2 } } });
    const key1 = (attempt1.decision as { result: { providerIdempotencyKey: string } }).result
      .providerIdempotencyKey;
    const key2 = (attempt2.decision as { result: { providerIdempotencyKey: string } }).result
      .providerIdempotencyKey;
    expect(key2).toBe(key1);
  });

  it('a step completed in an earlier attempt is started again as new in the next attempt', () => {
    given([
      claimed(1, T0),
      stepStarted(PREP_STEP, 1, at(1)),
      stepCompleted(PREP_STEP, 1, at(2)),
      claimed(2, T0 + LEASE_MS, { reason: 'after_lease_expiry' }),
    ])
      .when(startStep(PREP_STEP, 2, at(31)))
      .then([
        {
          type: 'StepStarted',
          data: { attempt: 2, step: PREP_STEP, providerIdempotencyKey: pik(PREP_STEP) },
        },
      ]);
  });

  it('a different step in the same attempt is recorded separately', () => {
    given(history.stepRunning())
      .when(startStep(PREP_STEP, 1, at(2)))
      .then([{ type: 'StepStarted', data: { step: PREP_STEP } }])
      .thenState({ steps: { [EFFECT_STEP]: { status: 'started' }, [PREP_STEP]: { status: 'started' } } });
  });

  it("zombie worker (C7): the old attempt's start is refused as stale after a reclaim", () => {
    given([
      claimed(1, T0),
      stepStarted(PREP_STEP, 1, at(1)),
      stepCompleted(PREP_STEP, 1, at(2)),
      claimed(2, at(40), { reason: 'after_lease_expiry' }),
    ])
      .when(startStep(EFFECT_STEP, 1, at(41)))
      .thenRefused('stale-token', { state: 'in_progress' });
  });

  it.each([
    ['a token from the future', 2],
    ['token 0', 0],
  ])('%s is stale', (_name, token) => {
    given(history.inProgress())
      .when(startStep(EFFECT_STEP, token, at(1)))
      .thenRefused('stale-token');
  });

  it('an unclaimed operation is not-found', () => {
    given([])
      .when(startStep(EFFECT_STEP, 1, at(1)))
      .thenRefused('not-found');
  });

  it.each([
    ['confirmed', history.confirmed()],
    ['failed', history.failedRetryable()],
    ['released', history.released()],
    ['unknown', history.unknown()],
  ])('with the current token on a %s operation: not-in-progress', (state, events) => {
    given(events)
      .when(startStep(PREP_STEP, 1, at(90)))
      .thenRefused('not-in-progress', { state });
  });
});

describe('CompleteStep', () => {
  it('records StepCompleted with the outputs', () => {
    const spec = given(history.stepRunning()).when(
      completeStep(EFFECT_STEP, 1, at(4), { invoiceId: 'INV-1' }),
    );
    expect(spec.decision.events).toEqual([stepCompleted(EFFECT_STEP, 1, at(4), { invoiceId: 'INV-1' })]);
    spec.thenResult({ state: 'in_progress', alreadyRecorded: false }).thenState({
      status: 'in_progress',
      steps: {
        [EFFECT_STEP]: {
          status: 'completed',
          attempt: 1,
          startedAt: iso(at(1)),
          completedAt: iso(at(4)),
          outputs: { invoiceId: 'INV-1' },
        },
      },
    });
  });

  it('a step never started is refused step-not-started', () => {
    given(history.inProgress())
      .when(completeStep(EFFECT_STEP, 1, at(2)))
      .thenRefused('step-not-started', { state: 'in_progress' });
  });

  it('a step started only by an earlier attempt is refused step-not-started', () => {
    given([...history.resolvedNotFound(), claimed(2, at(70))])
      .when(completeStep(EFFECT_STEP, 2, at(71)))
      .thenRefused('step-not-started');
  });

  it('a repeated completion writes nothing', () => {
    given([...history.stepRunning(), stepCompleted(EFFECT_STEP, 1, at(2), { a: 1 })])
      .when(completeStep(EFFECT_STEP, 1, at(3), { a: 2 }))
      .thenNothingHappened()
      .thenResult({ state: 'in_progress', alreadyRecorded: true })
      .thenState({ steps: { [EFFECT_STEP]: { outputs: { a: 1 } } } });
  });

  it('a stale token is refused', () => {
    given(history.stepRunning())
      .when(completeStep(EFFECT_STEP, 0, at(2)))
      .thenRefused('stale-token');
    given([
      ...history.failedRetryable(),
      claimed(2, at(20), { reason: 'after_retryable_failure' }),
      stepStarted(EFFECT_STEP, 2, at(21)),
    ])
      .when(completeStep(EFFECT_STEP, 1, at(22)))
      .thenRefused('stale-token', { state: 'in_progress' });
  });

  it('an unclaimed operation is not-found', () => {
    given([])
      .when(completeStep(EFFECT_STEP, 1, at(1)))
      .thenRefused('not-found');
  });

  it('with the current token on an unknown operation: not-in-progress', () => {
    given(history.unknown())
      .when(completeStep(EFFECT_STEP, 1, at(20)))
      .thenRefused('not-in-progress', { state: 'unknown' });
  });
});

describe('claim after a step (C7 / C8 control)', () => {
  it('a worker frozen after completing only a non-effect step is safely reclaimed', () => {
    given([claimed(1, T0), stepStarted(PREP_STEP, 1, at(1)), stepCompleted(PREP_STEP, 1, at(2))])
      .when(claim(at(31)))
      .then([{ type: 'OperationClaimed', data: { attempt: 2 } }]);
  });
});
