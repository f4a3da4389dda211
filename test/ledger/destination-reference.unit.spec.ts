// docs/api.md "Recovery and operator workflows": a confirmation without a known reference says so, and receives it later.
import { resolveRequestIssue } from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  T0,
  at,
  claimed,
  confirm,
  history,
  outcomeUnknown,
  released,
  resolved,
  stepStarted,
} from './support/fixtures.js';

const record = (now: number, destinationRef: string, actor = 'ops@acme') => ({
  type: 'RecordDestinationReference' as const,
  now,
  destinationRef,
  reason: 'found it in the billing system',
  actor,
});

describe('resolve confirmed: the reference is required, or explicitly unknown', () => {
  it('a left-out destinationRef is an issue naming destinationRef', () => {
    expect(resolveRequestIssue('confirmed', undefined)).toMatchObject({ field: 'destinationRef' });
  });
  it.each([['INV-1'], [null]])('destinationRef %j is accepted', (ref) => {
    expect(resolveRequestIssue('confirmed', ref)).toBeNull();
  });
  it.each([['not_found'], ['abandoned']] as const)('%s needs no reference', (resolution) => {
    expect(resolveRequestIssue(resolution, undefined)).toBeNull();
  });
});

describe('RecordDestinationReference', () => {
  it('fills in the reference of an operator confirmation without one, with actor and reason', () => {
    given(history.resolvedConfirmed(null))
      .when(record(at(90), 'INV-45'))
      .then([
        {
          type: 'DestinationReferenceRecorded',
          data: {
            destinationRef: 'INV-45',
            source: 'operator',
            actor: 'ops@acme',
            reason: 'found it in the billing system',
            reportedByAttempt: null,
          },
        },
      ])
      .thenResult({ state: 'confirmed', alreadyRecorded: false })
      .thenState({
        status: 'confirmed',
        confirmation: { destinationRef: 'INV-45', via: 'operator' },
        duplicateEffects: [],
      });
  });

  it('the same reference again is alreadyRecorded and records nothing', () => {
    given([...history.resolvedConfirmed(null)])
      .when(record(at(90), 'INV-45'))
      .thenResult({ state: 'confirmed' });
    given(history.resolvedConfirmed('INV-45'))
      .when(record(at(90), 'INV-45'))
      .thenEvents([])
      .thenResult({ state: 'confirmed', alreadyRecorded: true });
  });

  it('a different reference when one is recorded is refused reference-already-recorded', () => {
    given(history.resolvedConfirmed('INV-1'))
      .when(record(at(90), 'INV-2'))
      .thenRefused('reference-already-recorded', {
        recordedRef: 'INV-1',
        incomingRef: 'INV-2',
        state: 'confirmed',
      });
  });

  it.each([
    ['in_progress', history.inProgress()],
    ['unknown', history.unknown()],
    ['released', history.released()],
  ])('on a %s operation it is refused not-confirmed', (state, events) => {
    given(events)
      .when(record(at(90), 'INV-1'))
      .thenRefused('not-confirmed', { state });
  });

  it('an operation never claimed is not-found', () => {
    given([]).when(record(T0, 'INV-1')).thenRefused('not-found');
  });
});

describe("the worker's late confirmation after an operator confirmed without a reference", () => {
  it('fills the reference in (DestinationReferenceRecorded, late_confirmation): not a duplicate effect', () => {
    given(history.resolvedConfirmed(null))
      .when(confirm(1, at(120), 'INV-45'))
      .then([
        {
          type: 'DestinationReferenceRecorded',
          data: { destinationRef: 'INV-45', source: 'late_confirmation', actor: null, reportedByAttempt: 1 },
        },
      ])
      .thenResult({ state: 'confirmed', alreadyRecorded: false })
      .thenState({ confirmation: { destinationRef: 'INV-45' }, duplicateEffects: [] });
  });

  it('once the reference is filled in, a different one is a duplicate effect again', () => {
    given([
      ...history.resolvedConfirmed(null),
      {
        type: 'DestinationReferenceRecorded',
        data: {
          operationId: history.unknown()[0]!.data.operationId,
          key: history.unknown()[0]!.data.key,
          tenant: history.unknown()[0]!.data.tenant,
          attempt: 1,
          at: new Date(at(100)).toISOString(),
          destinationRef: 'INV-45',
          source: 'operator',
          actor: 'ops@acme',
          reason: 'found',
          reportedByAttempt: null,
        },
      },
    ])
      .when(confirm(1, at(120), 'INV-46'))
      .thenRefused('duplicate-effect', { recordedRef: 'INV-45', incomingRef: 'INV-46' });
  });

  it('a worker that itself confirmed without a reference is still answered duplicate-effect for a new one', () => {
    given(history.confirmed(null))
      .when(confirm(1, at(30), 'INV-9'))
      .thenRefused('duplicate-effect');
  });

  it('an older attempt than the one the operator confirmed does not fill it in (duplicate-effect)', () => {
    given([
      claimed(1, T0),
      released(1, at(1)),
      claimed(2, at(2)),
      stepStarted(EFFECT_STEP, 2, at(3)),
      outcomeUnknown(2, at(4), 'reported_timeout', [EFFECT_STEP]),
      resolved(2, at(60), 'confirmed', { destinationRef: null }),
    ])
      .when(confirm(1, at(70), 'INV-9'))
      .thenRefused('duplicate-effect', { recordedRef: null, incomingRef: 'INV-9' });
  });
});
