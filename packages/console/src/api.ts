import type { Problem as LedgerProblem } from '@operation-ledger/protocol';
import { session } from './session.js';

/**
 * An RFC 9457 problem document as the ledger sends it (`code` = the last segment of `type`), or
 * one made up here for a network error or a proxy's non-problem answer: only `status` is sure.
 */
export type Problem = Partial<LedgerProblem> & { readonly status: number };

/** A refused or failed request: its problem document (or one made up for a network error). */
export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail ?? problem.title ?? `HTTP ${problem.status}`);
  }
}

/** Query parameters; undefined and empty values are left out. */
export type Query = Record<string, string | number | undefined | null>;

/** `path?query` with empty parameters dropped and every value percent-encoded. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** Path segment, percent-encoded (tenants and ids may hold any character). */
export const seg = (part: string) => encodeURIComponent(part);

/** Headers of every API call: the session's bearer token (never a cookie or a URL). */
export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const token = session.token();
  return { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra };
}

/**
 * Sends one request to the ledger's API on this origin and parses the JSON answer.
 * @throws ProblemError with the server's problem details for any status >= 400, or a
 *   `network` problem (status 0) when the ledger cannot be reached.
 */
export async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: authHeaders(body === undefined ? {} : { 'content-type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch (error) {
    throw new ProblemError({
      status: 0,
      code: 'network',
      title: 'The ledger cannot be reached',
      detail: String(error),
    });
  }
  if (res.status === 401) session.expire();
  const text = await res.text();
  const json = text ? safeJson(text) : null;
  if (!res.ok) {
    const problem =
      json && typeof json === 'object' ? (json as Problem) : { status: res.status, detail: text };
    throw new ProblemError({ ...problem, status: res.status });
  }
  return json as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** GET `path` with `query` (see {@link request}). */
export const get = <T>(path: string, query?: Query) => request<T>('GET', withQuery(path, query));

/** POST a JSON body to `path` (see {@link request}). */
export const post = <T>(path: string, body: unknown) => request<T>('POST', path, body);

/**
 * Fetches `path` as a file (with the bearer token) and hands it to the browser as a download
 * named `filename`, through an object URL (no token in any URL).
 * @throws ProblemError as {@link request}.
 */
export async function download(path: string, filename: string): Promise<void> {
  const res = await fetch(path, { headers: authHeaders(), cache: 'no-store', credentials: 'omit' });
  if (!res.ok) throw new ProblemError({ status: res.status, ...(safeJson(await res.text()) as object) });
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
