import type { SseConnectionsRefused } from '../../auth/index.js';
import { rateLimited } from '../../auth/auth-problems.js';
import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import type { SubscriptionsFull } from './change-hub.js';

/**
 * The problem+json (RFC 9457) a subscription refused when it opens is answered with, thrown by
 * the controller (docs/api.md "Subscriptions"): 429 `rate-limited` past the key's cap, 503
 * `too-many-subscriptions` past the process's; both with `Retry-After` in seconds.
 */
export function subscriptionRefusalProblem(
  refusal: SseConnectionsRefused | SubscriptionsFull,
): ProblemException {
  if (refusal.kind === 'refused') {
    return rateLimited(
      `this API key holds ${refusal.held} open subscriptions, the most allowed; close one first`,
      refusal.retryAfterS,
    );
  }
  return new ProblemException(
    problem(
      'too-many-subscriptions',
      503,
      `this instance serves ${refusal.serving} subscriptions, the most it allows; retry later or on another instance`,
      { retryAfterS: refusal.retryAfterS },
    ),
    { 'Retry-After': String(refusal.retryAfterS) },
  );
}
