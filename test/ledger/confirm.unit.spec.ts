import type { LedgerEvent } from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  LEASE_MS,
  PREP_STEP,
  T0,
  at,
  claim,
  claimed,
  confirm,
  confirmed,
  duplicateEffect,
  failed,
  history,
  iso,
  outcomeUnknown,
  released,
  resolved,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

describe('confirm by the holder', () => {
  it('records OperationConfirmed (source worker) with the reference and outputs; the lease ends', () => {
    const spec = given(history.stepRunning()).when(confirm(1, at(5), 'INV-1', { total: 49.5 }));
    expect(spec.decision.events).toEqual([confirmed(1, at(5), 'INV-1', { outputs: { total: 49.5 } })]);
    spec
      .thenAudit([])
      .thenResult({ state: 'confirmed', alreadyRecorded: false })
      .thenState({
        status: 'confirmed',
        lease: null,
        attempt: 1,
        confirmation: {
          destinationRef: 'INV-1',
          outputs: { total: 49.5 },
          at: iso(at(5)),
          attempt: 1,
          via: 'worker',
        },
      });
  });

  it('confirming with no step recorded is allowed', () => {
    given(history.inProgress())
      .when(confirm(1, at(5), 'INV-1'))
      .then([{ type: 'OperationConfirmed', data: { destinationRef: 'INV-1', source: 'worker' } }]);
  });

  it("confirming after the lease ran out, while nobody reclaimed, is still the holder's confirmation", () => {
    given(history.stepRunning())
      .when(confirm(1, T0 + LEASE_MS + 5_000, 'INV-1'))
      .then([{ type: 'OperationConfirmed', data: { attempt: 1, source: 'worker' } }]);
  });

  it.each([[''], ['0'], [null]])('an empty-looking reference %j is recorded exactly as sent (C10)', (ref) => {
    given(history.inProgress())
      .when(confirm(1, at(5), ref))
      .then([{ type: 'OperationConfirmed', data: { destinationRef: ref } }])
      .thenState({ status: 'confirmed', confirmation: { destinationRef: ref } });
  });

  it.each([['INV-1'], [''], ['0'], [null]])('a repeat with the same reference %j is a no-op', (ref) => {
    given(history.confirmed(ref))
      .when(confirm(1, at(6), ref))
      .thenNothingHappened()
      .thenResult({ state: 'confirmed', alreadyRecorded: true });
  });

  it('a repeat without a reference after one was recorded is a no-op', () => {
    given(history.confirmed('INV-1'))
      .when(confirm(1, at(6), null))
      .thenNothingHappened();
  });
});

describe('a second, different destination reference is a duplicate effect', () => {
  it.each([
    ['INV-1', 'INV-2'],
    ['', '0'],
    ['0', ''],
    ['INV-1', ''],
  ])(
    'recorded %j, incoming %j: refused duplicate-effect and DuplicateEffectDetected recorded',
    (recorded, incoming) => {
      const spec = given(history.confirmed(recorded))
        .when(confirm(1, at(7), incoming))
        .thenRefused('duplicate-effect', { recordedRef: recorded, incomingRef: incoming, state: 'confirmed' })
        .thenAudit([]);
      expect(spec.decision.events).toEqual([duplicateEffect(1, at(7), recorded, incoming, 1)]);
      spec.thenState({
        status: 'confirmed',
        confirmation: { destinationRef: recorded, attempt: 1 },
        duplicateEffects: [{ ref: incoming, at: iso(at(7)), attempt: 1 }],
      });
    },
  );

  it('repeating the already-recorded duplicate reference is refused again but records nothing new', () => {
    given([...history.confirmed('INV-1'), duplicateEffect(1, at(7), 'INV-1', 'INV-2')])
      .when(confirm(1, at(8), 'INV-2'))
      .thenRefused('duplicate-effect', { recordedRef: 'INV-1', incomingRef: 'INV-2' })
      .thenEvents([]);
  });

  it('a third reference is another duplicate effect', () => {
    given([...history.confirmed('INV-1'), duplicateEffect(1, at(7), 'INV-1', 'INV-2')])
      .when(confirm(1, at(8), 'INV-3'))
      .thenRefused('duplicate-effect', { recordedRef: 'INV-1', incomingRef: 'INV-3' })
      .thenEvents([{ type: 'DuplicateEffectDetected', data: { incomingRef: 'INV-3' } }])
      .thenState({ duplicateEffects: [{ ref: 'INV-2' }, { ref: 'INV-3' }] });
  });

  it('a zombie attempt bringing its own reference after the operation was confirmed is a duplicate effect, attributed to it', () => {
    const events: LedgerEvent[] = [
      claimed(1, T0),
      claimed(2, at(40), { reason: 'after_lease_expiry' }),
      stepStarted(EFFECT_STEP, 2, at(41)),
      confirmed(2, at(42), 'INV-2'),
    ];
    given(events)
      .when(confirm(1, at(50), 'INV-ZOMBIE'))
      .thenRefused('duplicate-effect', { recordedRef: 'INV-2', incomingRef: 'INV-ZOMBIE' })
      .thenEvents([
        {
          type: 'DuplicateEffectDetected',
          data: { attempt: 2, recordedRef: 'INV-2', incomingRef: 'INV-ZOMBIE', reportedByAttempt: 1 },
        },
      ]);
  });

  it('a recorded null reference followed by a reference is recorded as a duplicate effect (current rule)', () => {
    given(history.confirmed(null))
      .when(confirm(1, at(7), 'INV-9'))
      .thenRefused('duplicate-effect', { recordedRef: null, incomingRef: 'INV-9' })
      .thenEvents([{ type: 'DuplicateEffectDetected', data: { recordedRef: null, incomingRef: 'INV-9' } }]);
  });
});

describe('stale tokens', () => {
  const zombie = (): LedgerEvent[] => [
    claimed(1, T0),
    stepStarted(PREP_STEP, 1, at(1)),
    stepCompleted(PREP_STEP, 1, at(2)),
    claimed(2, at(40), { reason: 'after_lease_expiry' }),
  ];

  it('zombie worker (C7): confirm with the old token while attempt 2 holds is refused stale-token', () => {
    given(zombie())
      .when(confirm(1, at(41), 'INV-Z'))
      .thenRefused('stale-token', { state: 'in_progress' });
  });

  it('the old attempt confirming the same reference as recorded is refused stale-token (no event)', () => {
    given([...zombie(), confirmed(2, at(45), 'INV-2')])
      .when(confirm(1, at(50), 'INV-2'))
      .thenRefused('stale-token', { state: 'confirmed' });
  });

  it('the old attempt confirming without a reference after confirmation is refused stale-token', () => {
    given([...zombie(), confirmed(2, at(45), 'INV-2')])
      .when(confirm(1, at(50), null))
      .thenRefused('stale-token');
  });

  it.each([
    ['a token from the future', 2],
    ['token 0', 0],
    ['a negative token', -1],
  ])('%s is stale, even while unknown', (_name, token) => {
    given(history.inProgress())
      .when(confirm(token, at(5), 'INV-1'))
      .thenRefused('stale-token');
    given(history.unknown())
      .when(confirm(token, at(20), 'INV-1'))
      .thenRefused('stale-token');
  });

  it('an unclaimed operation is not-found', () => {
    given([])
      .when(confirm(1, at(1), 'INV-1'))
      .thenRefused('not-found');
  });
});

describe('confirm on operations that are no longer in progress', () => {
  it.each([
    ['failed (retryable)', history.failedRetryable(), 'failed'],
    ['failed (final)', history.failedFinal(), 'failed'],
    ['released by the worker', history.released(), 'released'],
  ])('%s: the current token is refused not-in-progress', (_name, events, state) => {
    given(events)
      .when(confirm(1, at(20), 'INV-1'))
      .thenRefused('not-in-progress', { state });
  });

  it('abandoned: refused not-in-progress', () => {
    given(history.abandoned())
      .when(confirm(1, at(90), 'INV-1'))
      .thenRefused('not-in-progress', { state: 'abandoned' });
  });
});

describe('late confirmation while the outcome is unknown is evidence', () => {
  it('from the current attempt after a reported timeout: accepted as late_confirmation', () => {
    const spec = given(history.unknown()).when(confirm(1, at(30), 'INV-1', { found: true }));
    expect(spec.decision.events).toEqual([
      confirmed(1, at(30), 'INV-1', { outputs: { found: true }, source: 'late_confirmation' }),
    ]);
    spec.thenResult({ state: 'confirmed', alreadyRecorded: false }).thenState({
      status: 'confirmed',
      confirmation: { destinationRef: 'INV-1', via: 'late_confirmation', attempt: 1 },
    });
  });

  it('from the frozen holder after its lease expired over a started step (C8): accepted', () => {
    given([...history.stepRunning(), outcomeUnknown(1, at(31), 'lease_expired', [EFFECT_STEP])])
      .when(confirm(1, at(90), 'INV-1'))
      .then([
        {
          type: 'OperationConfirmed',
          data: { attempt: 1, destinationRef: 'INV-1', source: 'late_confirmation' },
        },
      ]);
  });

  it('from a stale attempt while a later attempt is unknown: accepted as late_confirmation', () => {
    given([
      claimed(1, T0),
      failed(1, at(1), true),
      claimed(2, at(2), { reason: 'after_retryable_failure' }),
      stepStarted(EFFECT_STEP, 2, at(3)),
      outcomeUnknown(2, at(10), 'reported_timeout', [EFFECT_STEP]),
    ])
      .when(confirm(1, at(20), 'INV-1'))
      .then([
        {
          type: 'OperationConfirmed',
          data: { destinationRef: 'INV-1', source: 'late_confirmation', attempt: 2, reportedByAttempt: 1 },
        },
      ])
      .thenState({ status: 'confirmed', attempt: 2 });
  });

  it.each([[''], ['0'], [null]])('with reference %j: accepted and recorded as sent', (ref) => {
    given(history.unknown())
      .when(confirm(1, at(30), ref))
      .then([{ type: 'OperationConfirmed', data: { destinationRef: ref, source: 'late_confirmation' } }]);
  });

  it('then a claim replays the late-confirmed outcome', () => {
    given([...history.unknown(), confirmed(1, at(30), 'INV-1', { source: 'late_confirmation' })])
      .when(claim(at(40)))
      .then([])
      .thenResult({ kind: 'replayed', state: 'confirmed', outcome: { destinationRef: 'INV-1' } });
  });
});

describe('late confirmation after an operator resolution', () => {
  it('after not_found: the attempt in question confirming is accepted as late evidence', () => {
    given(history.resolvedNotFound())
      .when(confirm(1, at(90), 'INV-1'))
      .then([
        {
          type: 'OperationConfirmed',
          data: { attempt: 1, destinationRef: 'INV-1', source: 'late_confirmation' },
        },
      ])
      .thenState({ status: 'confirmed', confirmation: { via: 'late_confirmation' } });
  });

  it('after not_found and a new claim: the old attempt is stale', () => {
    given([...history.resolvedNotFound(), claimed(2, at(70))])
      .when(confirm(1, at(90), 'INV-1'))
      .thenRefused('stale-token', { state: 'in_progress' });
  });

  it('after not_found, a reclaim and a plain worker release: confirm is not-in-progress (no stale resolution)', () => {
    given([...history.resolvedNotFound(), claimed(2, at(70)), released(2, at(71))])
      .when(confirm(2, at(72), 'INV-2'))
      .thenRefused('not-in-progress', { state: 'released' });
  });

  it('after not_found from an attempt older than the resolved one: stale-token', () => {
    given([
      claimed(1, T0),
      claimed(2, at(40), { reason: 'after_lease_expiry' }),
      stepStarted(EFFECT_STEP, 2, at(41)),
      outcomeUnknown(2, at(50), 'reported_timeout', [EFFECT_STEP]),
      resolved(2, at(60), 'not_found'),
    ])
      .when(confirm(1, at(90), 'INV-1'))
      .thenRefused('stale-token', { state: 'released' });
  });

  it("after the operator confirmed: the frozen worker's late confirm with the same reference is a no-op", () => {
    given(history.resolvedConfirmed('INV-1'))
      .when(confirm(1, at(90), 'INV-1'))
      .thenNothingHappened();
  });

  it('after the operator confirmed: a different reference from the frozen worker is a duplicate effect', () => {
    given(history.resolvedConfirmed('INV-1'))
      .when(confirm(1, at(90), 'INV-2'))
      .thenRefused('duplicate-effect', { recordedRef: 'INV-1', incomingRef: 'INV-2' })
      .thenEvents([
        {
          type: 'DuplicateEffectDetected',
          data: { recordedRef: 'INV-1', incomingRef: 'INV-2', reportedByAttempt: 1 },
        },
      ]);
  });
});
