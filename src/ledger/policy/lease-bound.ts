import type { Checked } from '../checked.js';
import { invalid } from '../checked.js';
import type { ActionPolicy } from './action-policy.js';

/**
 * The lease a claim or a renewal gets under the action's policy: the one asked for (ms) or, when
 * none, the policy's `defaultLeaseMs`; refused `invalid` naming `leaseMs` above `maxLeaseMs`.
 * `claimedAction` names the action in a claim's message; renewals pass null.
 */
export function leaseUnderPolicy(
  requestedMs: number | null,
  policy: ActionPolicy,
  claimedAction: string | null,
): Checked<number> {
  const leaseMs = requestedMs ?? policy.defaultLeaseMs;
  if (leaseMs <= policy.maxLeaseMs) return { ok: true, value: leaseMs };
  const message =
    claimedAction === null
      ? `must be at most ${policy.maxLeaseMs} ms (the action's policy)`
      : `must be at most ${policy.maxLeaseMs} ms for action ${claimedAction} (its policy)`;
  return invalid({ field: 'leaseMs', message });
}
