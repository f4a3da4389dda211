// The process-wide cap on open subscriptions (docs/api.md "Subscriptions"): past it a subscriber is told
// 503 `too-many-subscriptions` with Retry-After, and a released slot lets the next one in.
import { ProblemException } from '../../src/common/problem.exception.js';
import type { ProjectionRuntime } from '../../src/projections/projection-runtime.js';
import { ChangeHub, type SubscriptionsFull } from '../../src/projections/subscriptions/change-hub.js';
import { subscriptionRefusalProblem } from '../../src/projections/subscriptions/subscriptions-http-answer.js';

describe('ChangeHub.admit', () => {
  it('refuses past maxSubscriptions with 503 too-many-subscriptions and Retry-After, until a slot is released', () => {
    const hub = new ChangeHub({} as ProjectionRuntime, { maxSubscriptions: 2 });
    const first = hub.admit();
    hub.admit();
    const full = hub.admit();
    expect(full).toEqual({ kind: 'full', serving: 2, retryAfterS: 5 });
    // as the subscription routes answer it
    const refusal = subscriptionRefusalProblem(full as SubscriptionsFull);
    expect(refusal).toBeInstanceOf(ProblemException);
    expect(refusal.problem).toEqual({
      type: 'https://operation-ledger.dev/problems/too-many-subscriptions',
      title: expect.any(String),
      status: 503,
      detail: 'this instance serves 2 subscriptions, the most it allows; retry later or on another instance',
      code: 'too-many-subscriptions',
      retryAfterS: 5,
    });
    expect(refusal.headers).toEqual({ 'Retry-After': '5' });
    if (first.kind !== 'admitted') throw new Error('the first subscription is admitted');
    first.slot.release();
    first.slot.release(); // idempotent
    expect(hub.admit().kind).toBe('admitted');
    expect(hub.admit().kind).toBe('full');
  });
});
