import { validationProblem } from '../../common/validation.js';
import {
  fingerprintInput,
  payloadFingerprint,
  type ActionPolicy,
  type ClaimOperation,
} from '../../ledger/index.js';
import type { PreparedClaim } from './claim-input.js';

/**
 * The claim command under the action's policy: lease = the one asked for or the policy's
 * default, bounded by the policy's `maxLeaseMs`; fingerprint = SHA-256 of the RFC 8785 form of the
 * payload without the policy's excluded fields; approval switch and policy version for the audit.
 * @throws ProblemException 400 `validation` naming `leaseMs` above the policy's maximum.
 */
export function claimUnderPolicy(
  claim: PreparedClaim,
  policy: ActionPolicy,
  policyVersion: number,
  now: number,
): ClaimOperation {
  const leaseMs = claim.requestedLeaseMs ?? policy.defaultLeaseMs;
  if (leaseMs > policy.maxLeaseMs) {
    throw validationProblem([
      {
        field: 'leaseMs',
        message: `must be at most ${policy.maxLeaseMs} ms for action ${claim.key.action} (its policy)`,
      },
    ]);
  }
  return {
    type: 'ClaimOperation',
    now,
    key: claim.key,
    operationId: claim.operationId,
    payload: claim.payload,
    fingerprint: payloadFingerprint(fingerprintInput(claim.payload, policy.fingerprintExcludedFields)),
    leaseMs,
    workerId: claim.workerId,
    policy: { requireApproval: policy.requireApproval, version: policyVersion === 0 ? null : policyVersion },
  };
}
