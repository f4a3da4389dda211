import type { LedgerEvent } from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  T0,
  at,
  claim,
  claimed,
  confirmed,
  history,
  iso,
  outcomeUnknown,
  resolve,
  resolved,
  stepStarted,
} from './support/fixtures.js';

/** Unknown because a claim found the lease expired over a started step (C8). */
const unknownByLeaseExpiry = (): LedgerEvent[] => [
  ...history.stepRunning(),
  outcomeUnknown(1, at(31), 'lease_expired', [EFFECT_STEP]),
];

describe('ResolveOperation on an Unknown operation', () => {
  it('confirmed (found at the destination): records OperationResolved with the evidence → Confirmed via operator', () => {
    const spec = given(unknownByLeaseExpiry()).when(
      resolve(at(120), 'confirmed', {
        destinationRef: 'INV-1',
        reason: 'found by external ref',
        actor: 'alice',
      }),
    );
    expect(spec.decision.events).toEqual([
      resolved(1, at(120), 'confirmed', {
        destinationRef: 'INV-1',
        reason: 'found by external ref',
        actor: 'alice',
      }),
    ]);
    spec
      .thenAudit([])
      .thenResult({ state: 'confirmed' })
      .thenState({
        status: 'confirmed',
        attempt: 1,
        confirmation: {
          destinationRef: 'INV-1',
          outputs: null,
          at: iso(at(120)),
          attempt: 1,
          via: 'operator',
        },
        resolution: {
          resolution: 'confirmed',
          actor: 'alice',
          reason: 'found by external ref',
          at: iso(at(120)),
        },
      });
  });

  it('confirmed without a reference: recorded with destinationRef null, still a confirmation', () => {
    given(history.unknown())
      .when(resolve(at(120), 'confirmed'))
      .then([{ type: 'OperationResolved', data: { resolution: 'confirmed', destinationRef: null } }])
      .thenState({ status: 'confirmed', confirmation: { destinationRef: null, via: 'operator' } });
  });

  it('not_found: → Released (a reference sent along is not recorded); the key may be claimed again', () => {
    const spec = given(history.unknown())
      .when(
        resolve(at(120), 'not_found', {
          destinationRef: 'IGNORED',
          actor: 'bob',
          reason: 'nothing at destination',
        }),
      )
      .then([
        {
          type: 'OperationResolved',
          data: {
            attempt: 1,
            resolution: 'not_found',
            destinationRef: null,
            actor: 'bob',
            reason: 'nothing at destination',
          },
        },
      ])
      .thenResult({ state: 'released' })
      .thenState({
        status: 'released',
        confirmation: null,
        resolution: { resolution: 'not_found', actor: 'bob' },
      });
    given([...spec.given, ...spec.decision.events])
      .when(claim(at(130)))
      .then([{ type: 'OperationClaimed', data: { attempt: 2, reason: 'after_release' } }]);
  });

  it('abandoned: → Abandoned, replayed to later claims', () => {
    const spec = given(history.unknown())
      .when(
        resolve(at(120), 'abandoned', {
          destinationRef: 'IGNORED',
          reason: 'order cancelled',
          actor: 'carol',
        }),
      )
      .then([
        {
          type: 'OperationResolved',
          data: { resolution: 'abandoned', destinationRef: null, actor: 'carol' },
        },
      ])
      .thenResult({ state: 'abandoned' })
      .thenState({ status: 'abandoned', confirmation: null });
    given([...spec.given, ...spec.decision.events])
      .when(claim(at(130)))
      .then([])
      .thenResult({
        kind: 'replayed',
        state: 'abandoned',
        outcome: { resolution: { actor: 'carol', reason: 'order cancelled' } },
      });
  });

  it('the resolution belongs to the attempt that went Unknown', () => {
    given([
      ...history.resolvedNotFound(),
      claimed(2, at(70)),
      stepStarted(EFFECT_STEP, 2, at(71)),
      outcomeUnknown(2, at(80), 'reported_timeout', [EFFECT_STEP]),
    ])
      .when(resolve(at(200), 'confirmed', { destinationRef: 'INV-2' }))
      .then([{ type: 'OperationResolved', data: { attempt: 2, destinationRef: 'INV-2' } }]);
  });
});

describe('ResolveOperation refusals', () => {
  it.each([
    ['in_progress', history.inProgress()],
    ['in_progress', history.stepRunning()],
    ['confirmed', history.confirmed()],
    ['failed', history.failedRetryable()],
    ['failed', history.failedFinal()],
    ['released', history.released()],
    ['abandoned', history.abandoned()],
    ['released', history.resolvedNotFound()],
    ['confirmed', history.resolvedConfirmed()],
    ['confirmed', [...history.unknown(), confirmed(1, at(20), 'INV-1', { source: 'late_confirmation' })]],
  ])('%s: refused not-unknown', (state, events) => {
    given(events)
      .when(resolve(at(200), 'confirmed', { destinationRef: 'INV-X' }))
      .thenRefused('not-unknown', { state });
  });

  it('an in-progress operation whose lease expired over a started step is still not-unknown until a claim records it', () => {
    given(history.stepRunning())
      .when(resolve(T0 + 60_000, 'abandoned'))
      .thenRefused('not-unknown', { state: 'in_progress' });
  });

  it('an unclaimed operation is not-found', () => {
    given([])
      .when(resolve(at(1), 'abandoned'))
      .thenRefused('not-found');
  });
});
