/**
 * StepNotPerformed: the holder states that a step it started never reached the destination
 * (connection refused, DNS or TLS failure before the request was written), so the attempt may fail
 * as retryable again instead of waiting for recovery (docs/domain.md "Steps not performed").
 */
import type { MarkStepNotPerformed, StepNotPerformed } from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  KEY,
  OPERATION_ID,
  PREP_STEP,
  T0,
  at,
  claimed,
  fail,
  history,
  iso,
  release,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

const REASON = 'ECONNREFUSED 10.0.0.7:443: the request was never written';

const notPerformed = (step: string, fencingToken: number, now: number): MarkStepNotPerformed => ({
  type: 'MarkStepNotPerformed',
  step,
  fencingToken,
  now,
  reason: REASON,
});

const stepNotPerformed = (step: string, attempt: number, atMs: number): StepNotPerformed => ({
  type: 'StepNotPerformed',
  data: {
    operationId: OPERATION_ID,
    key: KEY,
    tenant: KEY.tenant,
    attempt,
    at: iso(atMs),
    step,
    reason: REASON,
  },
});

describe('MarkStepNotPerformed', () => {
  it('records StepNotPerformed (with the reason) for a started, unfinished step of this attempt', () => {
    given(history.stepRunning())
      .when(notPerformed(EFFECT_STEP, 1, at(3)))
      .then([
        { type: 'StepNotPerformed', data: { step: EFFECT_STEP, reason: REASON, attempt: 1, at: iso(at(3)) } },
      ])
      .thenResult({ state: 'in_progress', alreadyRecorded: false })
      .thenState({
        status: 'in_progress',
        steps: { [EFFECT_STEP]: { status: 'not_performed', attempt: 1 } },
      });
  });

  it('then a retryable failure is accepted (it was refused outcome-uncertain before)', () => {
    given(history.stepRunning())
      .when(fail(1, at(4), true))
      .thenRefused('outcome-uncertain');
    given([...history.stepRunning(), stepNotPerformed(EFFECT_STEP, 1, at(3))])
      .when(fail(1, at(4), true))
      .then([{ type: 'OperationFailed', data: { attempt: 1, retryable: true } }])
      .thenState({ status: 'failed', retryable: true });
  });

  it('then a release is accepted too (nothing was sent)', () => {
    given([...history.stepRunning(), stepNotPerformed(EFFECT_STEP, 1, at(3))])
      .when(release(1, at(4), 'shutting down'))
      .then([{ type: 'OperationReleased' }]);
  });

  it('then an expired lease is released by the sweeper, not made Unknown', () => {
    given([...history.stepRunning(), stepNotPerformed(EFFECT_STEP, 1, at(3))])
      .when({ type: 'SweepExpiredLease', now: at(31) })
      .then([{ type: 'OperationReleased', data: { releasedBy: 'sweeper' } }]);
  });

  it('another step of this attempt that was completed still makes a retryable failure uncertain', () => {
    given([
      claimed(1, T0),
      stepStarted(PREP_STEP, 1, at(1)),
      stepCompleted(PREP_STEP, 1, at(2)),
      stepStarted(EFFECT_STEP, 1, at(3)),
      stepNotPerformed(EFFECT_STEP, 1, at(4)),
    ])
      .when(fail(1, at(5), true))
      .thenRefused('outcome-uncertain');
  });

  it('a repeat is a no-op', () => {
    given([...history.stepRunning(), stepNotPerformed(EFFECT_STEP, 1, at(3))])
      .when(notPerformed(EFFECT_STEP, 1, at(4)))
      .thenNothingHappened()
      .thenResult({ state: 'in_progress', alreadyRecorded: true });
  });

  it('a stale fencing token is refused stale-token, like any follow-up', () => {
    given([...history.stepRunning(), claimed(2, at(40), { reason: 'after_lease_expiry' })])
      .when(notPerformed(EFFECT_STEP, 1, at(41)))
      .thenRefused('stale-token');
  });

  it('a step this attempt did not start is refused step-not-started', () => {
    given(history.inProgress())
      .when(notPerformed(EFFECT_STEP, 1, at(3)))
      .thenRefused('step-not-started');
    given([...history.stepRunning(), claimed(2, at(40), { reason: 'after_lease_expiry' })])
      .when(notPerformed(EFFECT_STEP, 2, at(41)))
      .thenRefused('step-not-started');
  });

  it('a completed step is refused outcome-uncertain (its effect is recorded)', () => {
    given([...history.stepRunning(), stepCompleted(EFFECT_STEP, 1, at(2))])
      .when(notPerformed(EFFECT_STEP, 1, at(3)))
      .thenRefused('outcome-uncertain');
  });

  it.each([
    ['unknown', history.unknown()],
    ['confirmed', history.confirmed()],
    ['failed', history.failedFinal()],
  ])('once the operation is %s, it is refused', (_state, events) => {
    const spec = given(events).when(notPerformed(EFFECT_STEP, 1, at(20)));
    expect(spec.decision.kind).toBe('refused');
  });
});
