import { invalid, type Checked } from './checked.js';
import type { ClaimOperation } from './commands.js';
import { payloadFingerprint, type JsonValue } from './fingerprint.js';
import { operationIdFor, type OperationKey } from './operation-key.js';
import { parseOperationKey } from './parse-operation-key.js';
import type { ActionPolicy } from './policy/action-policy.js';
import { fingerprintInput } from './policy/fingerprint-input.js';
import { leaseUnderPolicy } from './policy/lease-bound.js';
import { stepNameIssue } from './step-name.js';

/* A claim request becomes a `ClaimOperation` in two pure steps, before the stream is read. */

/** A client's claim request id: 1–128 of `A-Z a-z 0-9 . _ : -` (a UUID fits). */
export const CLAIM_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Most older revisions one amendment marks superseded (revision − 1 of them, from 1). */
export const MAX_SUPERSEDED_REVISIONS = 1000;

/** A claim as the transport read it, not yet checked; `payloadBytes`: UTF-8 size of its JSON text. */
export interface ClaimRequest {
  /** The key as sent; checked by {@link parseOperationKey}. */
  readonly key: unknown;
  readonly payload: JsonValue | undefined;
  readonly payloadBytes: number;
  /** The lease asked for, ms; null takes the policy's default. */
  readonly leaseMs: number | null;
  readonly workerId: string | null;
  /** Amendments: the older revision this claim supersedes, or null. */
  readonly supersedes: number | null;
  /** Round-trip shortcut: the step to start when the claim acquires, or null (absent = null). */
  readonly startStep?: string | null;
  /** The client's id of this claim request (checked by the transport's DTO), or null. */
  readonly claimRequestId?: string | null;
}

/** A claim whose key, payload and supersession passed {@link checkClaimRequest}. */
export interface CheckedClaim {
  readonly key: OperationKey;
  /** UUID v5 of the key. */
  readonly operationId: string;
  readonly payload: JsonValue;
  readonly requestedLeaseMs: number | null;
  readonly workerId: string | null;
  /** Below `key.revision`, or null. */
  readonly supersedes: number | null;
  /** A valid step name ({@link stepNameIssue}), or null. */
  readonly startStep: string | null;
  /** The client's id of this claim request, or null. */
  readonly claimRequestId: string | null;
}

/** Checks a claim before its policy is known (the key names the policy); the first broken rule wins. */
export function checkClaimRequest(
  request: ClaimRequest,
  limits: { readonly maxPayloadBytes: number },
): Checked<CheckedClaim> {
  const parsed = parseOperationKey(request.key);
  if (!parsed.ok) return { ok: false, rejection: { kind: 'invalid', issues: parsed.issues } };
  const key = parsed.value;
  if (request.payload === undefined) {
    return invalid({ field: 'payload', message: 'payload is required (any JSON value)' });
  }
  if (request.payloadBytes > limits.maxPayloadBytes) {
    const rejection = {
      kind: 'payload-too-large',
      payloadBytes: request.payloadBytes,
      maxPayloadBytes: limits.maxPayloadBytes,
    } as const;
    return { ok: false, rejection };
  }
  const supersedes = request.supersedes;
  if (supersedes !== null && supersedes >= key.revision) {
    return invalid({
      field: 'supersedes',
      message: `must be a revision below key.revision (${key.revision})`,
    });
  }
  if (supersedes !== null && key.revision - 1 > MAX_SUPERSEDED_REVISIONS) {
    return invalid({
      field: 'supersedes',
      message: `an amendment may supersede at most ${MAX_SUPERSEDED_REVISIONS} older revisions`,
    });
  }
  const startStep = request.startStep ?? null;
  const stepIssue = startStep === null ? null : stepNameIssue(startStep, 'startStep');
  if (stepIssue) return invalid(stepIssue);
  const claimRequestId = request.claimRequestId ?? null;
  if (claimRequestId !== null && !CLAIM_REQUEST_ID.test(claimRequestId)) {
    return invalid({
      field: 'claimRequestId',
      message: 'must be 1-128 characters of A-Z a-z 0-9 . _ : -',
    });
  }
  return {
    ok: true,
    value: {
      key,
      operationId: operationIdFor(key),
      payload: request.payload,
      requestedLeaseMs: request.leaseMs,
      workerId: request.workerId,
      supersedes,
      startStep,
      claimRequestId,
    },
  };
}

/**
 * The claim command under the action's policy (docs/api.md "Action policies"): fingerprint =
 * SHA-256 of the RFC 8785 form of the payload without `fingerprintExcludedFields`. `now` is epoch ms.
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
