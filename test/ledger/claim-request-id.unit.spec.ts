// A repeat of the claim request that acquired the live lease (the client's transport retried it
// after the answer was lost) is answered as that acquisition; anyone else still gets in-progress.
import { checkClaimRequest, fold, type LeaseRenewed } from '../../src/ledger/index.js';
import { decide, given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  FP,
  LEASE_MS,
  OPERATION_ID,
  PAYLOAD,
  PREP_STEP,
  T0,
  at,
  claim,
  claimed,
  iso,
  KEY,
  pik,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

const REQ = 'b1f7c3f2-7d1e-4c55-9a57-0d6c1d2e3f40';

const leaseRenewed = (attempt: number, atMs: number, expiresAt: number): LeaseRenewed => ({
  type: 'LeaseRenewed',
  data: {
    operationId: OPERATION_ID,
    key: KEY,
    tenant: KEY.tenant,
    attempt,
    at: iso(atMs),
    leaseMs: expiresAt - atMs,
    leaseExpiresAt: iso(expiresAt),
  },
});

describe('claim: the same claim request again', () => {
  it('records its claimRequestId with the acquisition and in the lease', () => {
    given([])
      .when(claim(T0, { claimRequestId: REQ }))
      .then([{ type: 'OperationClaimed', data: { attempt: 1, claimRequestId: REQ } }])
      .thenState({ lease: { attempt: 1, claimRequestId: REQ } });
  });

  it('while its attempt holds the lease: answered as the acquisition, nothing recorded', () => {
    const events = [claimed(1, T0, { claimRequestId: REQ })];
    const before = fold(events);
    given(events)
      .when(claim(at(3), { claimRequestId: REQ }))
      .then([])
      .thenResult({
        kind: 'acquired',
        operationId: OPERATION_ID,
        attempt: 1,
        fencingToken: 1,
        leaseExpiresAt: iso(T0 + LEASE_MS),
        fingerprint: FP,
        reason: 'same_claim_request',
        completedSteps: [],
      })
      .thenState({ attempt: 1, lease: before.lease! });
    const decision = decide(claim(at(3), { claimRequestId: REQ }), before);
    expect(decision.audit).toEqual([]);
    expect(fold([...events, ...decision.events])).toEqual(before);
  });

  it('answers the lease as renewed, the completed steps, and the step the claim started', () => {
    const events = [
      claimed(2, T0, { claimRequestId: REQ, reason: 'after_lease_expiry', payload: PAYLOAD }),
      stepStarted(PREP_STEP, 2, at(1)),
      stepCompleted(PREP_STEP, 2, at(2)),
      stepStarted(EFFECT_STEP, 2, at(3)),
      leaseRenewed(2, at(10), at(10) + LEASE_MS),
    ];
    const decision = decide(claim(at(12), { claimRequestId: REQ, startStep: EFFECT_STEP }), fold(events));
    expect(decision.events).toEqual([]);
    expect(decision.kind === 'accepted' && decision.result).toEqual({
      kind: 'acquired',
      operationId: OPERATION_ID,
      attempt: 2,
      fencingToken: 2,
      leaseExpiresAt: iso(at(10) + LEASE_MS),
      fingerprint: FP,
      reason: 'same_claim_request',
      completedSteps: [{ step: PREP_STEP, providerIdempotencyKey: pik(PREP_STEP) }],
      startedStep: { name: EFFECT_STEP, providerIdempotencyKey: pik(EFFECT_STEP) },
    });
  });

  it('another claim request, or none, is refused in-progress', () => {
    const events = [claimed(1, T0, { claimRequestId: REQ })];
    given(events)
      .when(claim(at(3), { claimRequestId: 'other-request' }))
      .thenRefused('in-progress');
    given(events)
      .when(claim(at(3)))
      .thenRefused('in-progress');
  });

  it('once the lease expired the repeat is an ordinary claim: a new attempt, or awaiting recovery', () => {
    given([claimed(1, T0, { claimRequestId: REQ })])
      .when(claim(T0 + LEASE_MS, { claimRequestId: REQ }))
      .then([{ type: 'OperationClaimed', data: { attempt: 2, reason: 'after_lease_expiry' } }]);
    given([claimed(1, T0, { claimRequestId: REQ }), stepStarted(EFFECT_STEP, 1, at(1))])
      .when(claim(T0 + LEASE_MS, { claimRequestId: REQ }))
      .thenRefused('awaiting-recovery');
  });

  it('an attempt acquired by another request with the same id earlier does not count', () => {
    // attempt 1 was REQ's; attempt 2 (after its lease expired) was acquired by another request
    const events = [
      claimed(1, T0, { claimRequestId: REQ }),
      claimed(2, T0 + LEASE_MS, { claimRequestId: 'later', reason: 'after_lease_expiry' }),
    ];
    given(events)
      .when(claim(T0 + LEASE_MS + 5, { claimRequestId: REQ }))
      .thenRefused('in-progress');
  });
});

describe('claimRequestId is checked with the claim', () => {
  const request = (claimRequestId: string | null) => ({
    key: { tenant: 't', source: 's', action: 'a', subject: 'x' },
    payload: {},
    payloadBytes: 2,
    leaseMs: null,
    workerId: null,
    supersedes: null,
    claimRequestId,
  });
  it.each(['', 'has space', 'x'.repeat(129), 'ümlaut', 'a/b'])('refuses %j naming the field', (id) => {
    const checked = checkClaimRequest(request(id), { maxPayloadBytes: 1000 });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.rejection).toMatchObject({
      kind: 'invalid',
      issues: [{ field: 'claimRequestId' }],
    });
  });
  it.each([REQ, 'a', 'w-3:job.17_x', 'x'.repeat(128)])('accepts %j', (id) => {
    const checked = checkClaimRequest(request(id), { maxPayloadBytes: 1000 });
    expect(checked.ok && checked.value.claimRequestId).toBe(id);
  });
});
