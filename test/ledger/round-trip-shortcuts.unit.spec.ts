// Round-trip shortcuts (docs/api.md "Worker follow-ups"): a claim may start a step and a confirm may complete one, each in one append.
import { checkClaimRequest } from '../../src/ledger/index.js';
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
  confirm,
  confirmed,
  history,
  outcomeUnknown,
  pik,
  released,
  resolved,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

const claimStarting = (now: number, step: string) => ({ ...claim(now), startStep: step });
const confirmCompleting = (
  token: number,
  now: number,
  ref: string | null,
  step: string,
  outputs = null as unknown,
) => ({
  ...confirm(token, now, ref),
  completeStep: { step, outputs: outputs as never },
});

describe('claim with startStep', () => {
  it('a first claim records OperationClaimed then StepStarted in one decision, with the provider key', () => {
    given([])
      .when(claimStarting(T0, EFFECT_STEP))
      .then([
        { type: 'OperationClaimed', data: { attempt: 1, reason: 'first' } },
        {
          type: 'StepStarted',
          data: { attempt: 1, step: EFFECT_STEP, providerIdempotencyKey: pik(EFFECT_STEP) },
        },
      ])
      .thenResult({
        kind: 'acquired',
        attempt: 1,
        startedStep: { name: EFFECT_STEP, providerIdempotencyKey: pik(EFFECT_STEP) },
      })
      .thenState({ status: 'in_progress', steps: { [EFFECT_STEP]: { status: 'started', attempt: 1 } } });
  });

  it('a reclaim after a release starts the step in the new attempt, with the same provider key', () => {
    given([claimed(1, T0), released(1, at(5))])
      .when(claimStarting(at(6), EFFECT_STEP))
      .then([
        { type: 'OperationClaimed', data: { attempt: 2, reason: 'after_release' } },
        {
          type: 'StepStarted',
          data: { attempt: 2, step: EFFECT_STEP, providerIdempotencyKey: pik(EFFECT_STEP) },
        },
      ]);
  });

  it('a live lease is refused in-progress and starts nothing', () => {
    given(history.inProgress())
      .when(claimStarting(at(10), EFFECT_STEP))
      .thenRefused('in-progress')
      .thenEvents([]);
  });

  it('a confirmed operation is replayed and starts nothing', () => {
    given(history.confirmed())
      .when(claimStarting(at(30), EFFECT_STEP))
      .thenEvents([])
      .thenResult({ kind: 'replayed', state: 'confirmed' });
  });

  it('an expired lease over a started step records only OutcomeUnknown (awaiting-recovery), no new step', () => {
    given(history.stepRunning())
      .when(claimStarting(T0 + LEASE_MS + 1, PREP_STEP))
      .thenRefused('awaiting-recovery')
      .thenEvents([{ type: 'OutcomeUnknown', data: { reason: 'lease_expired' } }]);
  });

  it('without startStep the answer carries no startedStep (the old form)', () => {
    given([])
      .when(claim(T0))
      .then([{ type: 'OperationClaimed' }]);
  });

  it.each([['a b'], [''], ['x'.repeat(129)], ['step/1']])(
    'the check refuses startStep %j naming startStep',
    (step) => {
      const checked = checkClaimRequest(
        {
          key: KEY,
          payload: { a: 1 },
          payloadBytes: 7,
          leaseMs: null,
          workerId: null,
          supersedes: null,
          startStep: step,
        },
        { maxPayloadBytes: 1000 },
      );
      expect(checked).toMatchObject({
        ok: false,
        rejection: { kind: 'invalid', issues: [{ field: 'startStep' }] },
      });
    },
  );

  it('the check passes a valid startStep through', () => {
    const checked = checkClaimRequest(
      {
        key: KEY,
        payload: 1,
        payloadBytes: 1,
        leaseMs: null,
        workerId: null,
        supersedes: null,
        startStep: 'send:mail-1',
      },
      { maxPayloadBytes: 1000 },
    );
    expect(checked).toMatchObject({ ok: true, value: { startStep: 'send:mail-1' } });
  });
});

describe('confirm with completeStep', () => {
  it('records StepCompleted with the step outputs, then OperationConfirmed, in one decision', () => {
    given(history.stepRunning())
      .when(confirmCompleting(1, at(5), 'INV-1', EFFECT_STEP, { invoiceId: 'INV-1' }))
      .then([
        { type: 'StepCompleted', data: { step: EFFECT_STEP, outputs: { invoiceId: 'INV-1' }, attempt: 1 } },
        { type: 'OperationConfirmed', data: { destinationRef: 'INV-1', source: 'worker', attempt: 1 } },
      ])
      .thenResult({ state: 'confirmed', alreadyRecorded: false })
      .thenState({
        status: 'confirmed',
        steps: { [EFFECT_STEP]: { status: 'completed', outputs: { invoiceId: 'INV-1' } } },
      });
  });

  it('a step never started in this attempt is refused step-not-started, nothing recorded', () => {
    given(history.stepRunning())
      .when(confirmCompleting(1, at(5), 'INV-1', PREP_STEP))
      .thenRefused('step-not-started', { state: 'in_progress' })
      .thenEvents([]);
  });

  it('a step started by an earlier attempt only is refused step-not-started', () => {
    given([claimed(1, T0), stepStarted(EFFECT_STEP, 1, at(1)), released(1, at(2)), claimed(2, at(3))])
      .when(confirmCompleting(2, at(5), 'INV-1', EFFECT_STEP))
      .thenRefused('step-not-started');
  });

  it('a step already completed in this attempt adds only the confirmation', () => {
    given([...history.stepRunning(), stepCompleted(EFFECT_STEP, 1, at(3))])
      .when(confirmCompleting(1, at(5), 'INV-1', EFFECT_STEP))
      .then([{ type: 'OperationConfirmed' }]);
  });

  it('a stale token is refused stale-token and records nothing', () => {
    given([
      claimed(1, T0),
      stepStarted(EFFECT_STEP, 1, at(1)),
      outcomeUnknown(1, at(2), 'reported_timeout', [EFFECT_STEP]),
      claimed(2, at(40)),
    ])
      .when(confirmCompleting(3, at(50), 'INV-1', EFFECT_STEP))
      .thenRefused('stale-token');
  });

  it('a repeat after the confirmation is answered alreadyRecorded and records nothing', () => {
    given([...history.stepRunning(), stepCompleted(EFFECT_STEP, 1, at(4)), confirmed(1, at(4), 'INV-1')])
      .when(confirmCompleting(1, at(6), 'INV-1', EFFECT_STEP))
      .thenEvents([])
      .thenResult({ state: 'confirmed', alreadyRecorded: true });
  });

  it('while Unknown, the attempt that started the step completes it as late evidence', () => {
    given(history.unknown())
      .when(confirmCompleting(1, at(20), 'INV-1', EFFECT_STEP, { late: true }))
      .then([
        { type: 'StepCompleted', data: { step: EFFECT_STEP, outputs: { late: true } } },
        { type: 'OperationConfirmed', data: { source: 'late_confirmation', reportedByAttempt: 1 } },
      ]);
  });
});

describe('confirm with completeStep after someone else confirmed', () => {
  it('a worker woken after an operator confirmed its reference: the open step is refused not-in-progress', () => {
    given([...history.unknown(), resolved(1, at(60), 'confirmed', { destinationRef: 'INV-1' })])
      .when(confirmCompleting(1, at(70), 'INV-1', EFFECT_STEP))
      .thenRefused('not-in-progress', { state: 'confirmed' })
      .thenEvents([]);
  });

  it('the same confirm without completeStep is the plain repeat (200, nothing new)', () => {
    given([...history.unknown(), resolved(1, at(60), 'confirmed', { destinationRef: 'INV-1' })])
      .when(confirm(1, at(70), 'INV-1'))
      .thenEvents([])
      .thenResult({ state: 'confirmed', alreadyRecorded: true });
  });

  it('filling a missing reference also completes the step the attempt started', () => {
    given(history.resolvedConfirmed(null))
      .when(confirmCompleting(1, at(70), 'INV-45', EFFECT_STEP, { id: 'INV-45' }))
      .then([
        { type: 'StepCompleted', data: { step: EFFECT_STEP, outputs: { id: 'INV-45' } } },
        {
          type: 'DestinationReferenceRecorded',
          data: { destinationRef: 'INV-45', source: 'late_confirmation' },
        },
      ]);
  });
});
