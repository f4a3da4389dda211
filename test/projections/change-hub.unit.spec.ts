// The process-wide cap on open subscriptions (docs/api.md "Subscriptions"): past it a subscriber is told
// 503 `too-many-subscriptions` with Retry-After, and a released slot lets the next one in.
import { ProblemException } from '../../src/common/problem.exception.js';
import type { ProjectionRuntime } from '../../src/projections/projection-runtime.js';
import { ChangeHub } from '../../src/projections/subscriptions/change-hub.js';

describe('ChangeHub.admit', () => {
  it('refuses past maxSubscriptions with 503 too-many-subscriptions and Retry-After, until a slot is released', () => {
    const hub = new ChangeHub({} as ProjectionRuntime, { maxSubscriptions: 2 });
    const first = hub.admit();
    hub.admit();
    let refusal: unknown;
    try {
      hub.admit();
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(ProblemException);
    expect((refusal as ProblemException).problem).toEqual({
      type: 'https://operation-ledger.dev/problems/too-many-subscriptions',
      title: expect.any(String),
      status: 503,
      detail: 'this instance serves 2 subscriptions, the most it allows; retry later or on another instance',
      code: 'too-many-subscriptions',
      retryAfterS: 5,
    });
    expect((refusal as ProblemException).headers).toEqual({ 'Retry-After': '5' });
    first.release();
    first.release(); // idempotent
    expect(() => hub.admit()).not.toThrow();
    expect(() => hub.admit()).toThrow(ProblemException);
  });
});
