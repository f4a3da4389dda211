import { parseOperationKey } from './parse-operation-key.js';
import { operationIdFor, type OperationKey } from './operation-key.js';
import type { JsonValue } from './fingerprint.js';
import { stepNameIssue } from './step-name.js';
import type { ValidationIssue } from './validation-issue.js';

/** A client's claim request id: 1–128 of `A-Z a-z 0-9 . _ : -` (a UUID fits). */
export const CLAIM_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Most older revisions one amendment marks superseded (revision − 1 of them, from 1). */
export const MAX_SUPERSEDED_REVISIONS = 1000;

/**
 * A claim as the transport read it, not yet checked: plain data. `payloadBytes` is the UTF-8 size
 * of the payload's JSON text (0 when there is no payload), measured once by whoever parsed it.
 */
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

/**
 * Why a request was not decided at all: its input is invalid (answered 400 naming the fields;
 * `invalid-key` when every issue is in the key) or its payload too large (413).
 */
export type InputRejection =
  | { readonly kind: 'invalid'; readonly issues: readonly ValidationIssue[] }
  | { readonly kind: 'payload-too-large'; readonly payloadBytes: number; readonly maxPayloadBytes: number };

/** A value, or the rejection that prevented it. */
export type Checked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly rejection: InputRejection };

/** An `invalid` rejection of the given issues. */
export function invalid<T>(...issues: ValidationIssue[]): Checked<T> {
  return { ok: false, rejection: { kind: 'invalid', issues } };
}

/**
 * Checks a claim before its policy is known, in this order: the key (domain rules), a payload
 * present and at most `maxPayloadBytes` bytes of JSON, `supersedes` below `key.revision` and the
 * amendment marking at most {@link MAX_SUPERSEDED_REVISIONS} older revisions, `startStep` a
 * valid step name (the step route's rule, field `startStep`), `claimRequestId`
 * {@link CLAIM_REQUEST_ID}.
 */
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
