/**
 * docs/domain.md#rules-every-store-and-handler-keeps: a refusal is read-only for the holder: it
 * never shortens, releases or takes over a lease nor alters an outcome; audit goes to the companion.
 * Every refusal the deciders can give is listed here and checked explicitly (independently of the
 * checks `thenRefused` already runs).
 */
import { fold, type LedgerCommand, type LedgerEvent, type RefusalCode } from '../../src/ledger/index.js';
import { decide } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  OTHER_PAYLOAD,
  PREP_STEP,
  T0,
  at,
  claim,
  claimed,
  completeStep,
  confirm,
  fail,
  history,
  release,
  reportUnknown,
  resolve,
  startStep,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

const reclaimed = (): LedgerEvent[] => [
  claimed(1, T0),
  stepStarted(PREP_STEP, 1, at(1)),
  stepCompleted(PREP_STEP, 1, at(2)),
  claimed(2, at(40), { reason: 'after_lease_expiry' }),
];

type Case = [name: string, given: LedgerEvent[], command: LedgerCommand, code: RefusalCode];

/** Refusals that record nothing in the decision stream. */
const pureRefusals: Case[] = [
  ['claim: in-progress (live lease)', history.stepRunning(), claim(at(10)), 'in-progress'],
  [
    'claim: in-progress (live lease acquired by another claim request)',
    [claimed(1, T0, { claimRequestId: 'req-a' }), stepStarted(EFFECT_STEP, 1, at(1))],
    claim(at(10), { claimRequestId: 'req-b' }),
    'in-progress',
  ],
  [
    'claim: in-progress (a claim request id, the holder sent none)',
    history.stepRunning(),
    claim(at(10), { claimRequestId: 'req-a' }),
    'in-progress',
  ],
  ['claim: awaiting-recovery (unknown)', history.unknown(), claim(at(90)), 'awaiting-recovery'],
  [
    'claim: payload-conflict while held',
    history.stepRunning(),
    claim(at(10), { payload: OTHER_PAYLOAD }),
    'payload-conflict',
  ],
  [
    'claim: payload-conflict after lease expiry',
    history.stepRunning(),
    claim(at(90), { payload: OTHER_PAYLOAD }),
    'payload-conflict',
  ],
  [
    'claim: payload-conflict when confirmed',
    history.confirmed(),
    claim(at(90), { payload: OTHER_PAYLOAD }),
    'payload-conflict',
  ],
  ['start: stale-token', reclaimed(), startStep(EFFECT_STEP, 1, at(41)), 'stale-token'],
  ['start: not-found', [], startStep(EFFECT_STEP, 1, at(1)), 'not-found'],
  ['start: not-in-progress', history.unknown(), startStep(EFFECT_STEP, 1, at(90)), 'not-in-progress'],
  [
    'complete: step-not-started',
    history.inProgress(),
    completeStep(EFFECT_STEP, 1, at(2)),
    'step-not-started',
  ],
  ['complete: stale-token', reclaimed(), completeStep(PREP_STEP, 1, at(41)), 'stale-token'],
  ['confirm: stale-token while held', reclaimed(), confirm(1, at(41), 'INV-Z'), 'stale-token'],
  ['confirm: stale-token, future token', history.inProgress(), confirm(2, at(5), 'INV-Z'), 'stale-token'],
  ['confirm: not-in-progress', history.failedFinal(), confirm(1, at(20), 'INV-1'), 'not-in-progress'],
  ['confirm: not-found', [], confirm(1, at(1), 'INV-1'), 'not-found'],
  ['fail: outcome-uncertain', history.stepRunning(), fail(1, at(5), true), 'outcome-uncertain'],
  ['fail: stale-token', reclaimed(), fail(1, at(41), false), 'stale-token'],
  ['fail: not-in-progress', history.confirmed(), fail(1, at(20), true), 'not-in-progress'],
  ['release: outcome-uncertain', history.stepRunning(), release(1, at(5)), 'outcome-uncertain'],
  ['release: stale-token', reclaimed(), release(1, at(41)), 'stale-token'],
  ['release: not-in-progress', history.unknown(), release(1, at(90)), 'not-in-progress'],
  ['unknown: stale-token', reclaimed(), reportUnknown(1, at(41)), 'stale-token'],
  ['unknown: not-in-progress', history.confirmed(), reportUnknown(1, at(20)), 'not-in-progress'],
  ['resolve: not-unknown (held)', history.stepRunning(), resolve(at(10), 'abandoned'), 'not-unknown'],
  ['resolve: not-unknown (confirmed)', history.confirmed(), resolve(at(10), 'not_found'), 'not-unknown'],
  ['resolve: not-found', [], resolve(at(10), 'abandoned'), 'not-found'],
];

describe('refusals without decision events leave the folded state — lease included — exactly as it was', () => {
  it.each(pureRefusals)('%s', (_name, events, command, code) => {
    const before = fold(events);
    const decision = decide(command, before);
    expect(decision.kind).toBe('refused');
    expect(decision.kind === 'refused' && decision.refusal.code).toBe(code);
    expect(decision.events).toEqual([]);
    const after = fold([...events, ...decision.events]);
    expect(after).toEqual(before);
    expect(after.lease).toEqual(before.lease);
    expect(after.lease?.expiresAt).toBe(before.lease?.expiresAt);
    expect(after.attempt).toBe(before.attempt);
    expect(decision.audit.map((e) => e.type)).not.toContain('OperationClaimed');
    // audit events, if any, are companion-stream types only
    for (const e of decision.audit)
      expect(['DuplicateClaimPrevented', 'PayloadConflictDetected']).toContain(e.type);
  });

  it("the holder's live lease survives a storm of refused claims", () => {
    const events = history.stepRunning();
    const lease = fold(events).lease;
    const storm = [
      claim(at(2)),
      claim(at(3), { payload: OTHER_PAYLOAD }),
      claim(at(29), { leaseMs: 3_600_000 }),
    ];
    const written: LedgerEvent[] = [];
    for (const c of storm) {
      const d = decide(c, fold([...events, ...written]));
      expect(d.kind).toBe('refused');
      written.push(...d.events);
    }
    expect(written).toEqual([]);
    expect(fold([...events, ...written]).lease).toEqual(lease);
    expect(lease).toEqual({ workerId: 'worker-1', attempt: 1, acquiredAt: T0, expiresAt: T0 + 30_000 });
  });
});

describe('the two refusals that do record a decision event never take over a lease or alter an outcome', () => {
  it('claim over an expired lease with a started step: only OutcomeUnknown, and only once the lease had run out', () => {
    const events = history.stepRunning();
    const before = fold(events);
    const decision = decide(claim(T0 + 30_000), before);
    expect(decision.kind === 'refused' && decision.refusal.code).toBe('awaiting-recovery');
    expect(decision.events.map((e) => e.type)).toEqual(['OutcomeUnknown']);
    expect(before.lease!.expiresAt).toBeLessThanOrEqual(T0 + 30_000);
    const after = fold([...events, ...decision.events]);
    expect(after.attempt).toBe(before.attempt);
    expect(after.steps).toEqual(before.steps);
    expect(after.fingerprint).toBe(before.fingerprint);
    expect(after.status).toBe('unknown');
    // one millisecond earlier the lease is live and nothing is recorded
    const early = decide(claim(T0 + 29_999), before);
    expect(early.events).toEqual([]);
    expect(early.kind === 'refused' && early.refusal.code).toBe('in-progress');
  });

  it('duplicate-effect: only DuplicateEffectDetected; the recorded confirmation is untouched', () => {
    const events = history.confirmed('INV-1');
    const before = fold(events);
    const decision = decide(confirm(1, at(9), 'INV-2'), before);
    expect(decision.kind === 'refused' && decision.refusal.code).toBe('duplicate-effect');
    expect(decision.events.map((e) => e.type)).toEqual(['DuplicateEffectDetected']);
    const after = fold([...events, ...decision.events]);
    expect(after.status).toBe('confirmed');
    expect(after.confirmation).toEqual(before.confirmation);
    expect(after.lease).toBeNull();
    expect(after.attempt).toBe(before.attempt);
  });
});
