/**
 * What the {@link Transport} needs of an HTTP client: one request out, status, headers and the
 * whole body as text back. Two implementations: `fetch` (every runtime; streams, SSE and uploads
 * always use it) and undici's `Dispatcher.request` on Node (`undici-sender.ts`), chosen by the
 * package's `#default-sender` import condition (package.json `imports`).
 */

/** A fetch function (Node 20's global `fetch` or a test double). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** One request as the transport sends it. */
export interface SendRequest {
  readonly method: string;
  /** Path and query, appended to the base URL (e.g. `/v1/claims?x=1`). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON text, or undefined for no body. */
  readonly body: string | undefined;
  /** Aborts the request; the promise then rejects with the signal's reason. */
  readonly signal: AbortSignal;
}

/** The answer, its body read whole. */
export interface SendResponse {
  readonly status: number;
  /** The response headers (built on first read where the client does not give a `Headers`). */
  readonly headers: Headers;
  readonly text: string;
}

/**
 * Sends one request to the ledger.
 * @throws the client's network error (fetch: `TypeError` with a `cause` carrying the system
 *   `code`; undici: an error with `code`, e.g. `ECONNREFUSED`), or the signal's reason.
 */
export type Sender = (request: SendRequest) => Promise<SendResponse>;

/** A {@link Sender} on `fetchFn` against `baseUrl` (no trailing slash). */
export function fetchSender(baseUrl: string, fetchFn: FetchLike): Sender {
  return async ({ method, path, headers, body, signal }) => {
    const res = await fetchFn(`${baseUrl}${path}`, { method, headers, body, signal });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text };
  };
}
