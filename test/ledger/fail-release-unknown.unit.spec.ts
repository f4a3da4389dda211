import type { LedgerEvent } from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  ERROR,
  PREP_STEP,
  T0,
  at,
  claim,
  claimed,
  fail,
  failed,
  history,
  iso,
  outcomeUnknown,
  release,
  released,
  reportUnknown,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

/** Attempt 1 completed a non-effect step, its lease ran out, attempt 2 holds (C7). */
const reclaimed = (): LedgerEvent[] => [
  claimed(1, T0),
  stepStarted(PREP_STEP, 1, at(1)),
  stepCompleted(PREP_STEP, 1, at(2)),
  claimed(2, at(40), { reason: 'after_lease_expiry' }),
];

describe('FailOperation', () => {
  it('retryable, before any step: records OperationFailed(retryable) and ends the lease', () => {
    const spec = given(history.inProgress()).when(fail(1, at(5), true));
    expect(spec.decision.events).toEqual([failed(1, at(5), true)]);
    spec
      .thenAudit([])
      .thenResult({ state: 'failed', alreadyRecorded: false })
      .thenState({ status: 'failed', retryable: true, lastError: ERROR, lease: null, attempt: 1 });
  });

  it('final, before any step: records OperationFailed(final)', () => {
    given(history.inProgress())
      .when(fail(1, at(5), false, { code: 'VALIDATION', message: 'VAT id invalid' }))
      .then([
        {
          type: 'OperationFailed',
          data: { retryable: false, error: { code: 'VALIDATION', message: 'VAT id invalid' } },
        },
      ])
      .thenState({ status: 'failed', retryable: false, lastError: { code: 'VALIDATION' } });
  });

  it('retryable after a step was started: refused outcome-uncertain (report unknown instead)', () => {
    given(history.stepRunning())
      .when(fail(1, at(5), true))
      .thenRefused('outcome-uncertain', { state: 'in_progress' });
  });

  it('retryable after a step was started and completed in this attempt: still outcome-uncertain', () => {
    given([...history.stepRunning(), stepCompleted(EFFECT_STEP, 1, at(2))])
      .when(fail(1, at(5), true))
      .thenRefused('outcome-uncertain');
  });

  it('retryable is allowed when the only step was started by an earlier attempt', () => {
    given(reclaimed())
      .when(fail(2, at(41), true))
      .then([{ type: 'OperationFailed', data: { attempt: 2, retryable: true } }]);
  });

  it('final after a step was started: allowed (the worker knows the effect did not and will not happen)', () => {
    given(history.stepRunning())
      .when(fail(1, at(5), false))
      .then([{ type: 'OperationFailed', data: { attempt: 1, retryable: false } }])
      .thenState({ status: 'failed', retryable: false });
  });

  it.each([[true], [false]])('a repeat (retryable=%j) is a no-op', (retryable) => {
    given([claimed(1, T0), failed(1, at(5), retryable)])
      .when(fail(1, at(6), retryable))
      .thenNothingHappened()
      .thenResult({ state: 'failed', alreadyRecorded: true });
  });

  it('a repeat that changes retryable is refused not-in-progress (a recorded outcome is never altered)', () => {
    given(history.failedFinal())
      .when(fail(1, at(6), true))
      .thenRefused('not-in-progress', { state: 'failed' });
    given(history.failedRetryable())
      .when(fail(1, at(6), false))
      .thenRefused('not-in-progress', { state: 'failed' });
  });

  it('zombie worker (C7): the old attempt failing is refused stale-token', () => {
    given(reclaimed())
      .when(fail(1, at(41), true))
      .thenRefused('stale-token', { state: 'in_progress' });
    given(reclaimed())
      .when(fail(1, at(41), false))
      .thenRefused('stale-token');
  });

  it('a repeat from the old attempt after attempt 2 failed the same way is stale, not a no-op', () => {
    given([...history.failedRetryable(), claimed(2, at(20)), failed(2, at(21), true)])
      .when(fail(1, at(22), true))
      .thenRefused('stale-token', { state: 'failed' });
  });

  it('an unclaimed operation is not-found', () => {
    given([])
      .when(fail(1, at(1), true))
      .thenRefused('not-found');
  });

  it.each([
    ['confirmed', history.confirmed()],
    ['released', history.released()],
    ['unknown', history.unknown()],
    ['abandoned', history.abandoned()],
  ])('%s: refused not-in-progress', (state, events) => {
    given(events)
      .when(fail(1, at(90), false))
      .thenRefused('not-in-progress', { state });
  });

  it('after a retryable failure the key may be claimed again; after a final one it replays', () => {
    given(history.failedRetryable())
      .when(claim(at(6)))
      .then([{ type: 'OperationClaimed', data: { attempt: 2 } }]);
    given(history.failedFinal())
      .when(claim(at(6)))
      .then([])
      .thenResult({ kind: 'replayed', state: 'failed' });
  });
});

describe('ReleaseOperation', () => {
  it('before any step: records OperationReleased with the reason and ends the lease', () => {
    const spec = given(history.inProgress()).when(release(1, at(3), 'shutting down'));
    expect(spec.decision.events).toEqual([released(1, at(3), 'shutting down')]);
    spec
      .thenResult({ state: 'released', alreadyRecorded: false })
      .thenState({ status: 'released', lease: null, attempt: 1, updatedAt: iso(at(3)) });
  });

  it('a release without a reason records reason null', () => {
    given(history.inProgress())
      .when(release(1, at(3)))
      .then([{ type: 'OperationReleased', data: { reason: null } }]);
  });

  it('after a step was started: refused outcome-uncertain', () => {
    given(history.stepRunning())
      .when(release(1, at(3)))
      .thenRefused('outcome-uncertain', { state: 'in_progress' });
  });

  it('after a step was started and completed in this attempt: refused outcome-uncertain', () => {
    given([...history.stepRunning(), stepCompleted(EFFECT_STEP, 1, at(2))])
      .when(release(1, at(3)))
      .thenRefused('outcome-uncertain');
  });

  it('allowed when the only step belongs to an earlier attempt', () => {
    given(reclaimed())
      .when(release(2, at(41)))
      .then([{ type: 'OperationReleased', data: { attempt: 2 } }]);
  });

  it('a repeat is a no-op', () => {
    given(history.released())
      .when(release(1, at(6)))
      .thenNothingHappened()
      .thenResult({ state: 'released', alreadyRecorded: true });
  });

  it('stale token: refused', () => {
    given(reclaimed())
      .when(release(1, at(41)))
      .thenRefused('stale-token', { state: 'in_progress' });
    given([...history.released(), claimed(2, at(6))])
      .when(release(1, at(7)))
      .thenRefused('stale-token');
  });

  it('an unclaimed operation is not-found', () => {
    given([])
      .when(release(1, at(1)))
      .thenRefused('not-found');
  });

  it.each([
    ['confirmed', history.confirmed()],
    ['failed', history.failedRetryable()],
    ['unknown', history.unknown()],
  ])('%s: refused not-in-progress', (state, events) => {
    given(events)
      .when(release(1, at(90)))
      .thenRefused('not-in-progress', { state });
  });
});

describe('ReportUnknownOutcome', () => {
  it('after a started step: records OutcomeUnknown(reported_timeout) with the detail and unfinished steps', () => {
    const spec = given(history.stepRunning()).when(reportUnknown(1, at(12), 'no answer in 10 s'));
    expect(spec.decision.events).toEqual([
      outcomeUnknown(1, at(12), 'reported_timeout', [EFFECT_STEP], 'no answer in 10 s', 'reported_by_worker'),
    ]);
    spec.thenResult({ state: 'unknown', alreadyRecorded: false }).thenState({
      status: 'unknown',
      lease: null,
      unknown: {
        reason: 'reported_timeout',
        cause: 'reported_by_worker',
        detail: 'no answer in 10 s',
        at: iso(at(12)),
        attempt: 1,
      },
    });
  });

  it('labels a report true: reported_timeout only when the worker says it timed out', () => {
    given(history.stepRunning())
      .when({ ...reportUnknown(1, at(12), 'JobTimeoutError: job ran longer than 1000 ms'), timedOut: true })
      .then([{ type: 'OutcomeUnknown', data: { cause: 'reported_timeout' } }])
      .thenState({ unknown: { cause: 'reported_timeout', at: iso(at(12)), attempt: 1 } });
    given(history.stepRunning())
      .when(reportUnknown(1, at(12), 'Error: billing 500'))
      .then([
        { type: 'OutcomeUnknown', data: { cause: 'reported_by_worker', detail: 'Error: billing 500' } },
      ]);
  });

  it('an event recorded before causes existed reads true: a worker report is reported_by_worker', () => {
    given([
      ...history.stepRunning(),
      outcomeUnknown(1, at(12), 'reported_timeout', [EFFECT_STEP], 'ECONNREFUSED'),
    ])
      .when(reportUnknown(1, at(13)))
      .thenState({
        unknown: { reason: 'reported_timeout', cause: 'reported_by_worker', detail: 'ECONNREFUSED' },
      });
    given([...history.stepRunning(), outcomeUnknown(1, at(31), 'lease_expired', [EFFECT_STEP])])
      .when(reportUnknown(1, at(32)))
      .thenState({ unknown: { reason: 'lease_expired', cause: 'lease_expired_after_step' } });
  });

  it('lists only steps of this attempt that are not completed', () => {
    given([
      ...reclaimed(),
      stepStarted(PREP_STEP, 2, at(41)),
      stepCompleted(PREP_STEP, 2, at(42)),
      stepStarted(EFFECT_STEP, 2, at(43)),
    ])
      .when(reportUnknown(2, at(50)))
      .then([{ type: 'OutcomeUnknown', data: { attempt: 2, unfinishedSteps: [EFFECT_STEP] } }]);
  });

  it('with no step started: allowed, unfinishedSteps empty', () => {
    given(history.inProgress())
      .when(reportUnknown(1, at(5)))
      .then([{ type: 'OutcomeUnknown', data: { reason: 'reported_timeout', unfinishedSteps: [] } }]);
  });

  it('then a claim answers awaiting-recovery (C9)', () => {
    given([...history.stepRunning(), outcomeUnknown(1, at(12), 'reported_timeout', [EFFECT_STEP])])
      .when(claim(at(13)))
      .thenRefused('awaiting-recovery')
      .thenEvents([]);
  });

  it('a repeat is a no-op', () => {
    given(history.unknown())
      .when(reportUnknown(1, at(20)))
      .thenNothingHappened()
      .thenResult({ state: 'unknown', alreadyRecorded: true });
  });

  it('the frozen holder reporting after the claim recorded lease_expired is a no-op', () => {
    given([...history.stepRunning(), outcomeUnknown(1, at(31), 'lease_expired', [EFFECT_STEP])])
      .when(reportUnknown(1, at(40)))
      .thenNothingHappened();
  });

  it('stale token: refused', () => {
    given(reclaimed())
      .when(reportUnknown(1, at(41)))
      .thenRefused('stale-token', { state: 'in_progress' });
  });

  it('an unclaimed operation is not-found', () => {
    given([])
      .when(reportUnknown(1, at(1)))
      .thenRefused('not-found');
  });

  it.each([
    ['confirmed', history.confirmed()],
    ['failed', history.failedFinal()],
    ['released', history.released()],
    ['abandoned', history.abandoned()],
  ])('%s: refused not-in-progress', (state, events) => {
    given(events)
      .when(reportUnknown(1, at(90)))
      .thenRefused('not-in-progress', { state });
  });
});
