import { PROBLEMS } from './problem-codes.js';

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
