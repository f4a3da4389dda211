/**
 * RFC 9457 problem details. `type` is a stable URI ending in the problem code (docs/api.md "Problem details"), so a
 * client can switch on the last path segment.
 */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly errors?: readonly { readonly field: string; readonly message: string }[];
  readonly [extension: string]: unknown;
}

/** Base of every problem `type` URI. */
export const PROBLEM_TYPE_BASE = 'https://operation-ledger.dev/problems/';

/** Media type of problem responses (RFC 9457 §3). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

const TITLES: Record<string, string> = {
  validation: 'The request is not valid',
  'invalid-key': 'The operation key is not valid',
  'invalid-json': 'The request body is not valid JSON',
  'payload-too-large': 'The request or payload is too large',
  'payload-conflict': 'This key was used with a different payload',
  'in-progress': 'Another worker holds this operation',
  'awaiting-recovery': 'The outcome is unknown and awaits recovery',
  'stale-token': 'The fencing token is stale',
  'duplicate-effect': 'A second, different effect was reported',
  'outcome-uncertain': 'The outcome is uncertain',
  'not-unknown': 'The operation is not awaiting recovery',
  'not-in-progress': 'The operation is not in progress',
  'step-not-started': 'The step was not started',
  'not-found': 'Not found',
  'store-unavailable': 'The event store is unavailable',
  contention: 'Too much contention on this operation',
  'unsupported-media-type': 'Unsupported media type',
  unauthenticated: 'A valid API key is required',
  forbidden: 'This API key lacks the required role',
  'forbidden-tenant': 'This API key is not bound to that tenant',
  'rate-limited': 'Too many requests',
  'key-revoked': 'The API key is revoked',
  internal: 'Internal error',
  'awaiting-approval': 'The operation waits for an operator approval',
  superseded: 'A newer revision of this subject exists',
  'not-awaiting-approval': 'The operation is not awaiting approval',
  'not-final-failure': 'Only a final failure can be replayed',
  'replay-not-allowed': "The action's policy forbids replay",
  'no-duplicate-effect': 'There is no unacknowledged duplicate effect',
  'operator-only-recovery': "The action's policy routes recovery to operators only",
  'policy-version-conflict': 'The policy was changed concurrently',
  'retention-expired': "The operation's record was compacted after its retention",
};

/** Builds a problem document for `code`; `extra` adds extension members (RFC 9457 §3.2). */
export function problem(
  code: string,
  status: number,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemDetails {
  return {
    type: PROBLEM_TYPE_BASE + code,
    title: TITLES[code] ?? code,
    status,
    detail,
    code,
    ...extra,
  };
}
