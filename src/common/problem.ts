import { PROBLEM_TYPE_BASE, PROBLEMS, type Problem } from '@operation-ledger/protocol';

/**
 * RFC 9457 problem details (the protocol's `Problem`): `type` is a stable URI ending in the
 * problem code (docs/api.md "Problem details"), so a client can switch on the last path segment.
 */
export type ProblemDetails = Problem;

export { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE } from '@operation-ledger/protocol';

/** Builds a problem document for `code`; `extra` adds extension members (RFC 9457 §3.2). */
export function problem(
  code: string,
  status: number,
  detail: string,
  extra: Record<string, unknown> = {},
): ProblemDetails {
  return {
    type: PROBLEM_TYPE_BASE + code,
    title: (PROBLEMS as Record<string, { title: string }>)[code]?.title ?? code,
    status,
    detail,
    code,
    ...extra,
  };
}
