import {
  anyStepStartedThisAttempt,
  evolve,
  fold,
  initialState,
  outcomeOf,
  unfinishedSteps,
  type AuditEvent,
  type LedgerEvent,
  type OperationState,
} from '../../src/ledger/index.js';
import {
  EFFECT_STEP,
  ERROR,
  FP,
  KEY,
  LEASE_MS,
  OPERATION_ID,
  PAYLOAD,
  PREP_STEP,
  T0,
  at,
  claimed,
  confirmed,
  duplicateEffect,
  failed,
  history,
  iso,
  outcomeUnknown,
  pik,
  released,
  resolved,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    Object.values(o).forEach(deepFreeze);
    Object.freeze(o);
  }
  return o;
}

const duplicateClaim: AuditEvent = {
  type: 'DuplicateClaimPrevented',
  data: {
    operationId: OPERATION_ID,
    key: KEY,
    tenant: KEY.tenant,
    attempt: 1,
    at: iso(at(99)),
    fingerprint: FP,
    workerId: 'w',
    answer: 'in_progress',
    state: 'in_progress',
  },
};

describe('initial state and fold', () => {
  it('a never-claimed key folds to the explicit none state', () => {
    expect(fold([])).toBe(initialState);
    expect(initialState).toEqual({
      status: 'none',
      operationId: null,
      key: null,
      fingerprint: null,
      payload: null,
      attempt: 0,
      lease: null,
      steps: {},
      confirmation: null,
      duplicateEffects: [],
      lastError: null,
      retryable: null,
      unknown: null,
      resolution: null,
      approval: null,
      supersededBy: null,
      lastEvidence: null,
      archived: null,
      createdAt: null,
      updatedAt: null,
    });
    expect(Object.isFrozen(initialState)).toBe(true);
  });

  it('OperationClaimed → in_progress with identity, fingerprint, payload and lease (server times as ms)', () => {
    expect(fold([claimed(1, T0, { workerId: 'worker-a', leaseMs: 12_000 })])).toEqual({
      ...initialState,
      status: 'in_progress',
      operationId: OPERATION_ID,
      key: KEY,
      fingerprint: FP,
      payload: PAYLOAD,
      attempt: 1,
      lease: { workerId: 'worker-a', attempt: 1, acquiredAt: T0, expiresAt: T0 + 12_000 },
      createdAt: iso(T0),
      updatedAt: iso(T0),
    });
  });

  it('evolve never mutates the state or the event it is given', () => {
    const events = deepFreeze([
      claimed(1, T0),
      stepStarted(EFFECT_STEP, 1, at(1)),
      stepCompleted(EFFECT_STEP, 1, at(2)),
      confirmed(1, at(3), 'INV-1'),
      duplicateEffect(1, at(4), 'INV-1', 'INV-2'),
    ]);
    let state: OperationState = initialState;
    for (const e of events) state = deepFreeze(evolve(state, e));
    expect(state.status).toBe('confirmed');
    expect(state.duplicateEffects).toHaveLength(1);
  });
});

describe('evolve: every decision event', () => {
  it('StepStarted / StepCompleted track the step, its attempt and outputs', () => {
    const s = fold([
      claimed(1, T0),
      stepStarted(EFFECT_STEP, 1, at(1)),
      stepCompleted(EFFECT_STEP, 1, at(2), { id: 7 }),
    ]);
    expect(s.steps).toEqual({
      [EFFECT_STEP]: {
        name: EFFECT_STEP,
        status: 'completed',
        attempt: 1,
        providerIdempotencyKey: pik(EFFECT_STEP),
        startedAt: iso(at(1)),
        completedAt: iso(at(2)),
        outputs: { id: 7 },
      },
    });
    expect(s.status).toBe('in_progress');
    expect(s.updatedAt).toBe(iso(at(2)));
  });

  it('StepCompleted for a step never started changes nothing but updatedAt', () => {
    const before = fold([claimed(1, T0)]);
    const after = evolve(before, stepCompleted('ghost', 1, at(5)));
    expect(after).toEqual({ ...before, updatedAt: iso(at(5)) });
  });

  it('OperationConfirmed → confirmed, lease cleared, confirmation recorded', () => {
    const s = fold([claimed(1, T0), confirmed(1, at(3), '0', { outputs: { n: 1 } })]);
    expect(s).toMatchObject({
      status: 'confirmed',
      lease: null,
      attempt: 1,
      confirmation: { destinationRef: '0', outputs: { n: 1 }, at: iso(at(3)), attempt: 1, via: 'worker' },
    });
  });

  it('OperationFailed → failed with error and retryable, lease cleared', () => {
    expect(fold([claimed(1, T0), failed(1, at(3), true)])).toMatchObject({
      status: 'failed',
      retryable: true,
      lastError: ERROR,
      lease: null,
    });
    expect(fold([claimed(1, T0), failed(1, at(3), false)])).toMatchObject({
      status: 'failed',
      retryable: false,
    });
  });

  it('OperationReleased → released, lease cleared', () => {
    expect(fold(history.released())).toMatchObject({ status: 'released', lease: null, attempt: 1 });
  });

  it('OutcomeUnknown → unknown with reason, time and attempt; lease cleared', () => {
    expect(
      fold([...history.stepRunning(), outcomeUnknown(1, at(31), 'lease_expired', [EFFECT_STEP])]),
    ).toMatchObject({
      status: 'unknown',
      lease: null,
      unknown: { reason: 'lease_expired', at: iso(at(31)), attempt: 1 },
    });
  });

  it.each([
    ['confirmed', 'confirmed'],
    ['not_found', 'released'],
    ['abandoned', 'abandoned'],
  ] as const)('OperationResolved(%s) → %s with the resolution', (resolution, status) => {
    const s = fold([
      ...history.unknown(),
      resolved(1, at(60), resolution, { destinationRef: 'R', actor: 'op', reason: 'why' }),
    ]);
    expect(s.status).toBe(status);
    expect(s.resolution).toEqual({ resolution, actor: 'op', reason: 'why', at: iso(at(60)) });
    expect(s.confirmation).toEqual(
      resolution === 'confirmed'
        ? { destinationRef: 'R', outputs: null, at: iso(at(60)), attempt: 1, via: 'operator' }
        : null,
    );
  });

  it('DuplicateEffectDetected appends to the duplicates and leaves the recorded confirmation alone', () => {
    const before = fold(history.confirmed('INV-1'));
    const after = fold([...history.confirmed('INV-1'), duplicateEffect(1, at(7), 'INV-1', 'INV-2', 1)]);
    expect(after).toEqual({
      ...before,
      duplicateEffects: [{ ref: 'INV-2', at: iso(at(7)), attempt: 1, acknowledged: false }],
      updatedAt: iso(at(7)),
    });
  });

  it('audit events (DuplicateClaimPrevented, PayloadConflictDetected) do not change the state at all', () => {
    const s = fold(history.inProgress());
    expect(evolve(s, duplicateClaim)).toBe(s);
    const conflict: AuditEvent = {
      type: 'PayloadConflictDetected',
      data: {
        ...duplicateClaim.data,
        existingFingerprint: FP,
        incomingFingerprint: 'f'.repeat(64),
        incomingPayload: 1,
        workerId: null,
      },
    };
    expect(evolve(s, conflict)).toBe(s);
    // a merged history (decision + audit streams) folds like the decision stream alone
    expect(fold([...history.inProgress(), duplicateClaim, conflict])).toEqual(s);
  });

  it('an event type it does not know is ignored', () => {
    const s = fold(history.inProgress());
    expect(
      evolve(s, { type: 'SomethingNobodyKnows', data: { at: iso(at(9)) } } as unknown as LedgerEvent),
    ).toBe(s);
  });
});

describe('evolve across attempts', () => {
  const multi = (): LedgerEvent[] => [
    claimed(1, T0),
    stepStarted(PREP_STEP, 1, at(1)),
    stepCompleted(PREP_STEP, 1, at(2)),
    failed(1, at(3), true),
    claimed(2, at(10), { reason: 'after_retryable_failure', workerId: 'worker-2' }),
  ];

  it('a new claim keeps the first payload and createdAt, takes the new attempt and lease, resets retryable', () => {
    const s = fold(multi());
    expect(s).toMatchObject({
      status: 'in_progress',
      attempt: 2,
      payload: PAYLOAD,
      fingerprint: FP,
      createdAt: iso(T0),
      updatedAt: iso(at(10)),
      retryable: null,
      lastError: ERROR,
      lease: { workerId: 'worker-2', attempt: 2, acquiredAt: at(10), expiresAt: at(10) + LEASE_MS },
    });
    expect(s.steps[PREP_STEP]).toMatchObject({ status: 'completed', attempt: 1 });
  });

  it('a new claim clears the Unknown episode and its operator resolution', () => {
    const s = fold([...history.resolvedNotFound(), claimed(2, at(70))]);
    expect(s.unknown).toBeNull();
    expect(s.resolution).toBeNull();
    expect(s.status).toBe('in_progress');
  });

  it('a worker confirmation after a not_found resolution and a reclaim replays without the old resolution', () => {
    const s = fold([...history.resolvedNotFound(), claimed(2, at(70)), confirmed(2, at(75), 'INV-2')]);
    expect(outcomeOf(s)).toEqual({
      destinationRef: 'INV-2',
      outputs: null,
      confirmedAt: iso(at(75)),
      confirmedVia: 'worker',
      error: null,
      retryable: null,
      resolution: null,
      approval: null,
    });
  });

  it('unfinishedSteps / anyStepStartedThisAttempt only look at the current attempt', () => {
    const s1 = fold([
      claimed(1, T0),
      stepStarted('a', 1, at(1)),
      stepStarted('b', 1, at(2)),
      stepCompleted('b', 1, at(3)),
    ]);
    expect(unfinishedSteps(s1)).toEqual(['a']);
    expect(anyStepStartedThisAttempt(s1)).toBe(true);
    const s2 = fold(multi());
    expect(unfinishedSteps(s2)).toEqual([]);
    expect(anyStepStartedThisAttempt(s2)).toBe(false);
    expect(anyStepStartedThisAttempt(fold(history.inProgress()))).toBe(false);
  });
});

describe('outcomeOf (what a duplicate claim is answered)', () => {
  it('final failure: error and retryable=false, no confirmation', () => {
    expect(outcomeOf(fold(history.failedFinal()))).toEqual({
      destinationRef: null,
      outputs: null,
      confirmedAt: null,
      confirmedVia: null,
      error: ERROR,
      retryable: false,
      resolution: null,
      approval: null,
    });
  });

  it('confirmed after an earlier retryable failure does not report the old error', () => {
    const s = fold([claimed(1, T0), failed(1, at(1), true), claimed(2, at(2)), confirmed(2, at(3), 'INV-1')]);
    expect(outcomeOf(s)).toMatchObject({
      destinationRef: 'INV-1',
      error: null,
      retryable: null,
      confirmedVia: 'worker',
    });
  });

  it('a released (non-terminal) state reports nothing', () => {
    expect(outcomeOf(fold([claimed(1, T0), released(1, at(1))]))).toMatchObject({
      error: null,
      destinationRef: null,
    });
  });
});
