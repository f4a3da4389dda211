// The duplicate-effect decision of reconciliation: recorded once per extra record, never for the
// confirmed reference, never before the operation is confirmed.
import { decideReconciledDuplicate, evolve, fold, type LedgerEvent } from '../../src/ledger/index.js';
import {
  at,
  claimed,
  confirmed,
  duplicateEffect,
  outcomeUnknown,
  OPERATION_ID,
} from '../ledger/support/fixtures.js';

const cmd = (recordId: string) => ({
  type: 'ReportReconciledDuplicate' as const,
  now: at(100),
  recordId,
  reconciliationId: 'run-1',
});
const given = (...events: LedgerEvent[]) => fold(events);

describe('decideReconciledDuplicate', () => {
  it('given a confirmed operation, when another record is reported, then DuplicateEffectDetected from reconciliation', () => {
    const state = given(claimed(1, at(0)), confirmed(1, at(1), 'INV-1'));
    const d = decideReconciledDuplicate(cmd('INV-2'), state);
    expect(d).toMatchObject({ kind: 'accepted', result: { outcome: 'recorded', state: 'confirmed' } });
    expect(d.events).toEqual([
      {
        type: 'DuplicateEffectDetected',
        data: expect.objectContaining({
          operationId: OPERATION_ID,
          recordedRef: 'INV-1',
          incomingRef: 'INV-2',
          reportedByAttempt: 1,
          source: 'reconciliation',
          reconciliationId: 'run-1',
          at: new Date(at(100)).toISOString(),
        }),
      },
    ]);
    const after = d.events.reduce(evolve, state);
    expect(after.duplicateEffects.map((x) => x.ref)).toEqual(['INV-2']);
    // and deciding again on the new state records nothing (the re-run)
    expect(decideReconciledDuplicate(cmd('INV-2'), after)).toMatchObject({
      events: [],
      result: { outcome: 'already_recorded' },
    });
  });

  it('given a duplicate a worker already reported, when reconciliation finds it, then nothing new', () => {
    const state = given(
      claimed(1, at(0)),
      confirmed(1, at(1), 'INV-1'),
      duplicateEffect(1, at(2), 'INV-1', 'INV-2'),
    );
    expect(decideReconciledDuplicate(cmd('INV-2'), state)).toMatchObject({
      events: [],
      result: { outcome: 'already_recorded' },
    });
  });

  it('given the confirmed reference itself, then it is not a second effect', () => {
    const state = given(claimed(1, at(0)), confirmed(1, at(1), 'INV-1'));
    expect(decideReconciledDuplicate(cmd('INV-1'), state)).toMatchObject({
      events: [],
      result: { outcome: 'is_confirmed_ref' },
    });
  });

  it('given an operation not confirmed (unknown, in progress, none), then nothing is recorded', () => {
    for (const state of [
      given(claimed(1, at(0)), outcomeUnknown(1, at(1), 'reported_timeout', ['create-invoice'])),
      given(claimed(1, at(0))),
      given(),
    ]) {
      expect(decideReconciledDuplicate(cmd('INV-2'), state)).toMatchObject({
        events: [],
        result: { outcome: 'not_confirmed' },
      });
    }
  });
});
