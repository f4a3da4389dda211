import type { CheckedClaim, Checked } from '../claim-request.js';
import type { ClaimOperation } from '../commands.js';
import { payloadFingerprint } from '../fingerprint.js';
import type { ActionPolicy } from './action-policy.js';
import { fingerprintInput } from './fingerprint-input.js';
import { leaseUnderPolicy } from './lease-bound.js';

/**
 * The claim command under the action's policy (issue "Recovery and operator workflows"): lease
 * from {@link leaseUnderPolicy}; fingerprint = SHA-256 of the RFC 8785 form of the payload without
 * the policy's `fingerprintExcludedFields`; the approval switch and the policy's version (0, the
 * built-in default, is recorded as null) for the audit. `now` is epoch ms of the server clock.
 */
export function claimUnderPolicy(
  claim: CheckedClaim,
  policy: ActionPolicy,
  policyVersion: number,
  now: number,
): Checked<ClaimOperation> {
  const lease = leaseUnderPolicy(claim.requestedLeaseMs, policy, claim.key.action);
  if (!lease.ok) return lease;
  return {
    ok: true,
    value: {
      type: 'ClaimOperation',
      now,
      key: claim.key,
      operationId: claim.operationId,
      payload: claim.payload,
      fingerprint: payloadFingerprint(fingerprintInput(claim.payload, policy.fingerprintExcludedFields)),
      leaseMs: lease.value,
      workerId: claim.workerId,
      startStep: claim.startStep,
      claimRequestId: claim.claimRequestId,
      policy: {
        requireApproval: policy.requireApproval,
        version: policyVersion === 0 ? null : policyVersion,
      },
    },
  };
}
