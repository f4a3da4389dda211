/**
 * RFC 9457 problem details as the ledger sends them. `type` is a stable URI ending in the problem
 * code (docs/api.md "Problem details"), so a client can switch on the last path segment.
 */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** Stable code: the last path segment of `type`, e.g. `stale-token`. */
  readonly code: string;
  /** Fields at fault (400s), e.g. `[{ field: 'key.subject', message: '…' }]`. */
  readonly errors?: readonly { readonly field: string; readonly message: string }[];
  readonly [extension: string]: unknown;
}

/** Base of every problem `type` URI. */
export const PROBLEM_TYPE_BASE = 'https://operation-ledger.dev/problems/';

/** Media type of problem responses (RFC 9457 §3). */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
