import { decideClaim, fold, type ClaimResult, type LedgerEvent } from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  FP,
  KEY,
  LEASE_MS,
  OPERATION_ID,
  OTHER_FP,
  OTHER_PAYLOAD,
  PAYLOAD,
  PREP_STEP,
  T0,
  at,
  claim,
  claimed,
  confirmed,
  failed,
  history,
  iso,
  outcomeUnknown,
  pik,
  released,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

describe('claim: acquiring an operation', () => {
  it('a never-claimed key is acquired as attempt 1 and the exact OperationClaimed event is recorded', () => {
    const spec = given([]).when(claim(T0, { workerId: 'worker-a', leaseMs: 45_000 }));
    expect(spec.decision.events).toEqual([
      {
        type: 'OperationClaimed',
        data: {
          operationId: OPERATION_ID,
          key: KEY,
          tenant: 'acme-gmbh',
          attempt: 1,
          at: '2025-01-01T09:00:00.000Z',
          fingerprint: FP,
          payload: PAYLOAD,
          workerId: 'worker-a',
          leaseMs: 45_000,
          leaseExpiresAt: '2025-01-01T09:00:45.000Z',
          reason: 'first',
        },
      },
    ]);
    expect(spec.decision.audit).toEqual([]);
    spec
      .thenResult({
        kind: 'acquired',
        operationId: OPERATION_ID,
        attempt: 1,
        fencingToken: 1,
        leaseExpiresAt: '2025-01-01T09:00:45.000Z',
        fingerprint: FP,
        reason: 'first',
        completedSteps: [],
      })
      .thenState({
        status: 'in_progress',
        attempt: 1,
        fingerprint: FP,
        payload: PAYLOAD,
        lease: { workerId: 'worker-a', attempt: 1, acquiredAt: T0, expiresAt: T0 + 45_000 },
        createdAt: iso(T0),
      });
  });

  it('keeps a null workerId as null', () => {
    given([])
      .when(claim(T0, { workerId: null }))
      .then([{ type: 'OperationClaimed', data: { workerId: null } }])
      .thenState({ lease: { workerId: null } });
  });

  it('after a retryable failure, acquires attempt n+1 (payload kept only on the first claim)', () => {
    given(history.failedRetryable())
      .when(claim(at(20), { workerId: 'worker-b' }))
      .then([
        {
          type: 'OperationClaimed',
          data: {
            attempt: 2,
            reason: 'after_retryable_failure',
            fingerprint: FP,
            payload: null,
            workerId: 'worker-b',
            leaseExpiresAt: iso(at(20) + LEASE_MS),
          },
        },
      ])
      .thenAudit([])
      .thenResult({ kind: 'acquired', attempt: 2, fencingToken: 2, reason: 'after_retryable_failure' })
      .thenState({
        status: 'in_progress',
        attempt: 2,
        payload: PAYLOAD,
        retryable: null,
        lease: { attempt: 2 },
      });
  });

  it('after a release, acquires attempt n+1 with reason after_release', () => {
    given(history.released())
      .when(claim(at(6)))
      .then([{ type: 'OperationClaimed', data: { attempt: 2, reason: 'after_release', payload: null } }])
      .thenResult({ kind: 'acquired', attempt: 2, fencingToken: 2 });
  });

  it('after an operator resolved Unknown as not_found, acquires attempt n+1 with reason after_release', () => {
    given(history.resolvedNotFound())
      .when(claim(at(70)))
      .then([{ type: 'OperationClaimed', data: { attempt: 2, reason: 'after_release' } }])
      .thenState({ status: 'in_progress', attempt: 2, unknown: null });
  });

  it('counts attempts across several failures and releases', () => {
    given([
      claimed(1, T0),
      failed(1, at(1), true),
      claimed(2, at(2), { reason: 'after_retryable_failure' }),
      released(2, at(3)),
      claimed(3, at(4)),
      failed(3, at(5), true),
    ])
      .when(claim(at(6)))
      .then([{ type: 'OperationClaimed', data: { attempt: 4 } }])
      .thenResult({ fencingToken: 4 });
  });
});

describe('claim: lease expiry (judged on the server clock in the command)', () => {
  it('with nothing started, an expired lease may be reclaimed (attempt 2, after_lease_expiry)', () => {
    given(history.inProgress())
      .when(claim(at(31), { workerId: 'worker-b' }))
      .then([
        {
          type: 'OperationClaimed',
          data: { attempt: 2, reason: 'after_lease_expiry', workerId: 'worker-b' },
        },
      ])
      .thenAudit([])
      .thenResult({ kind: 'acquired', attempt: 2, fencingToken: 2, completedSteps: [] })
      .thenState({ lease: { workerId: 'worker-b', attempt: 2, expiresAt: at(31) + LEASE_MS } });
  });

  it('the lease ends exactly at leaseExpiresAt: reclaimable at that millisecond, not one before', () => {
    given(history.inProgress())
      .when(claim(T0 + LEASE_MS))
      .then([{ type: 'OperationClaimed', data: { attempt: 2, reason: 'after_lease_expiry' } }]);
    given(history.inProgress())
      .when(claim(T0 + LEASE_MS - 1))
      .thenRefused('in-progress', { retryAfterMs: 1, state: 'in_progress' });
  });

  it('with only completed steps, an expired lease may be reclaimed and the completed steps are reported', () => {
    given([
      claimed(1, T0),
      stepStarted(PREP_STEP, 1, at(1)),
      stepCompleted(PREP_STEP, 1, at(2), { pdf: 'inv.pdf' }),
    ])
      .when(claim(at(40)))
      .then([{ type: 'OperationClaimed', data: { attempt: 2, reason: 'after_lease_expiry' } }])
      .thenResult({
        kind: 'acquired',
        attempt: 2,
        completedSteps: [{ step: PREP_STEP, providerIdempotencyKey: pik(PREP_STEP) }],
      });
  });

  it('over a started-but-unfinished step, records OutcomeUnknown(lease_expired) and answers awaiting-recovery', () => {
    const spec = given([
      claimed(1, T0),
      stepStarted(PREP_STEP, 1, at(1)),
      stepCompleted(PREP_STEP, 1, at(2)),
      stepStarted(EFFECT_STEP, 1, at(3)),
    ])
      .when(claim(at(45), { workerId: 'worker-b' }))
      .thenRefused('awaiting-recovery', { state: 'unknown' });
    expect(spec.decision.events).toEqual([
      outcomeUnknown(1, at(45), 'lease_expired', [EFFECT_STEP], null, 'lease_expired_after_step'),
    ]);
    spec
      .thenAudit([
        {
          type: 'DuplicateClaimPrevented',
          data: {
            attempt: 1,
            fingerprint: FP,
            workerId: 'worker-b',
            answer: 'awaiting_recovery',
            state: 'in_progress',
          },
        },
      ])
      .thenState({
        status: 'unknown',
        lease: null,
        attempt: 1,
        unknown: { reason: 'lease_expired', attempt: 1 },
      });
    // and the next claim is refused without recording a second OutcomeUnknown
    given([...spec.given, ...spec.decision.events])
      .when(claim(at(50)))
      .thenRefused('awaiting-recovery', { state: 'unknown' })
      .thenEvents([]);
  });

  it('lists every unfinished step of the attempt in OutcomeUnknown', () => {
    given([claimed(1, T0), stepStarted('a', 1, at(1)), stepStarted('b', 1, at(2))])
      .when(claim(at(31)))
      .thenRefused('awaiting-recovery')
      .thenEvents([{ type: 'OutcomeUnknown', data: { unfinishedSteps: ['a', 'b'] } }]);
  });

  it('a step left started by an earlier, resolved attempt does not block reclaiming the current one', () => {
    given([...history.resolvedNotFound(), claimed(2, at(70))])
      .when(claim(at(70) + LEASE_MS))
      .then([{ type: 'OperationClaimed', data: { attempt: 3, reason: 'after_lease_expiry' } }]);
  });
});

describe('claim: refusals while someone holds or the outcome is unknown', () => {
  it('a live lease answers in-progress: ask again in at most 5 s, the lease end given, audited, holder untouched', () => {
    given(history.inProgress())
      .when(claim(at(10), { workerId: 'worker-b' }))
      .thenRefused('in-progress', {
        retryAfterMs: 5_000,
        leaseExpiresAt: iso(T0 + LEASE_MS),
        state: 'in_progress',
      })
      .thenEvents([])
      .thenAudit([
        {
          type: 'DuplicateClaimPrevented',
          data: {
            operationId: OPERATION_ID,
            attempt: 1,
            fingerprint: FP,
            workerId: 'worker-b',
            answer: 'in_progress',
            state: 'in_progress',
          },
        },
      ])
      .thenState({ lease: { workerId: 'worker-1', attempt: 1, expiresAt: T0 + LEASE_MS } });
  });

  it('the holder re-claiming its own key is also in-progress (a claim is never a lease renewal)', () => {
    given([claimed(1, T0, { workerId: 'worker-a' })])
      .when(claim(at(29), { workerId: 'worker-a', leaseMs: 600_000 }))
      .thenRefused('in-progress', { retryAfterMs: 1_000 })
      .thenState({ lease: { expiresAt: T0 + LEASE_MS } });
  });

  it('in-progress with a started step and a live lease stays in-progress (no OutcomeUnknown)', () => {
    given(history.stepRunning())
      .when(claim(at(5)))
      .thenRefused('in-progress', { retryAfterMs: 5_000 })
      .thenEvents([]);
  });

  it('unknown answers awaiting-recovery, audited, nothing recorded in the decision stream', () => {
    given(history.unknown())
      .when(claim(at(100)))
      .thenRefused('awaiting-recovery', { state: 'unknown' })
      .thenEvents([])
      .thenAudit([
        {
          type: 'DuplicateClaimPrevented',
          data: { answer: 'awaiting_recovery', state: 'unknown', attempt: 1 },
        },
      ]);
  });
});

describe('claim: payload conflict (same key, different fingerprint) in every state', () => {
  const cases: [string, LedgerEvent[], string][] = [
    ['in_progress (live lease)', history.inProgress(), 'in_progress'],
    ['in_progress (lease expired, nothing started)', history.inProgress(), 'in_progress'],
    ['in_progress (lease expired over a started step)', history.stepRunning(), 'in_progress'],
    ['confirmed', history.confirmed(), 'confirmed'],
    ['failed (retryable)', history.failedRetryable(), 'failed'],
    ['failed (final)', history.failedFinal(), 'failed'],
    ['released', history.released(), 'released'],
    ['unknown', history.unknown(), 'unknown'],
    ['abandoned', history.abandoned(), 'abandoned'],
    ['released by operator (not_found)', history.resolvedNotFound(), 'released'],
  ];
  it.each(cases)(
    '%s: refused payload-conflict with both fingerprints and a PayloadConflictDetected audit',
    (name, events, state) => {
      const now = name.includes('live') ? at(5) : at(300);
      given(events)
        .when(claim(now, { payload: OTHER_PAYLOAD, workerId: 'worker-z' }))
        .thenRefused('payload-conflict', { existingFingerprint: FP, incomingFingerprint: OTHER_FP, state })
        .thenEvents([])
        .thenAudit([
          {
            type: 'PayloadConflictDetected',
            data: {
              operationId: OPERATION_ID,
              key: KEY,
              attempt: fold(events).attempt,
              existingFingerprint: FP,
              incomingFingerprint: OTHER_FP,
              incomingPayload: OTHER_PAYLOAD,
              workerId: 'worker-z',
            },
          },
        ]);
    },
  );

  it('the fingerprints differ (the test data really is a conflict)', () => {
    expect(OTHER_FP).not.toBe(FP);
  });
});

describe('claim: replay of a terminal outcome', () => {
  it('confirmed: the recorded outcome is replayed, nothing is acquired, the duplicate is audited', () => {
    given([claimed(1, T0), confirmed(1, at(5), 'INV-1', { outputs: { invoiceNo: 'R-77' } })])
      .when(claim(at(100), { workerId: 'worker-b' }))
      .then([])
      .thenAudit([
        {
          type: 'DuplicateClaimPrevented',
          data: { attempt: 1, fingerprint: FP, workerId: 'worker-b', answer: 'replayed', state: 'confirmed' },
        },
      ])
      .thenResult({
        kind: 'replayed',
        operationId: OPERATION_ID,
        state: 'confirmed',
        outcome: {
          destinationRef: 'INV-1',
          outputs: { invoiceNo: 'R-77' },
          confirmedAt: iso(at(5)),
          confirmedVia: 'worker',
          error: null,
          retryable: null,
          resolution: null,
        },
      });
  });

  it.each([[''], ['0'], [null]])(
    'a confirmation with destinationRef %j is still a confirmation: replayed, never re-executed',
    (ref) => {
      const spec = given(history.confirmed(ref))
        .when(claim(at(100)))
        .then([]);
      const result = (spec.decision as { result: ClaimResult }).result;
      expect(result.kind).toBe('replayed');
      expect(result.kind === 'replayed' && result.outcome.destinationRef).toBe(ref);
    },
  );

  it('failed (final): the error is replayed', () => {
    given(history.failedFinal())
      .when(claim(at(100)))
      .then([])
      .thenAudit([{ type: 'DuplicateClaimPrevented', data: { answer: 'replayed', state: 'failed' } }])
      .thenResult({
        kind: 'replayed',
        state: 'failed',
        outcome: {
          error: { code: 'HTTP_503', message: 'destination unavailable' },
          retryable: false,
          destinationRef: null,
          confirmedAt: null,
        },
      });
  });

  it('abandoned: the operator resolution is replayed', () => {
    given(history.abandoned())
      .when(claim(at(100)))
      .then([])
      .thenAudit([{ type: 'DuplicateClaimPrevented', data: { answer: 'replayed', state: 'abandoned' } }])
      .thenResult({
        kind: 'replayed',
        state: 'abandoned',
        outcome: {
          resolution: { actor: 'ops@acme', reason: 'customer cancelled', at: iso(at(60)) },
          destinationRef: null,
          error: null,
          retryable: null,
        },
      });
  });

  it('confirmed by an operator: replayed with the operator reference and confirmedVia operator', () => {
    given(history.resolvedConfirmed('INV-OP'))
      .when(claim(at(100)))
      .then([])
      .thenResult({
        kind: 'replayed',
        state: 'confirmed',
        outcome: { destinationRef: 'INV-OP', confirmedVia: 'operator', resolution: { actor: 'ops@acme' } },
      });
  });

  it('confirmed by a late confirmation: replayed with confirmedVia late_confirmation', () => {
    given([...history.unknown(), confirmed(1, at(20), 'INV-LATE', { source: 'late_confirmation' })])
      .when(claim(at(100)))
      .then([])
      .thenResult({
        kind: 'replayed',
        state: 'confirmed',
        outcome: { destinationRef: 'INV-LATE', confirmedVia: 'late_confirmation' },
      });
  });
});

describe('claim: purity', () => {
  it('the same command on the same state gives the same decision', () => {
    const state = fold(history.inProgress());
    expect(decideClaim(claim(at(10)), state)).toEqual(decideClaim(claim(at(10)), state));
  });
});
