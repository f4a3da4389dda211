import type { HttpAnswer } from './http-answer.js';

/** Base of the problem `type` URIs, as the ledger's own (docs/api.md "Problem details"). */
const TYPE_BASE = 'https://operation-ledger.dev/problems/';

/**
 * A problem+json answer (RFC 9457): `type` ending in `code`, `title`, `status`, `detail` and
 * `extensions` (e.g. both fingerprints of a 422); `retryAfterS` adds `Retry-After` (RFC 9110
 * §10.2.3, seconds). Pure.
 */
export function problemAnswer(
  status: number,
  code: string,
  title: string,
  detail: string,
  extensions: Record<string, unknown> = {},
  retryAfterS?: number,
): HttpAnswer {
  const body = JSON.stringify({ type: TYPE_BASE + code, title, status, detail, code, ...extensions });
  const headers: [string, string][] = [['content-type', 'application/problem+json']];
  if (retryAfterS !== undefined) headers.push(['retry-after', String(Math.max(1, Math.ceil(retryAfterS)))]);
  return { status, headers, body: Buffer.from(body, 'utf8') };
}
