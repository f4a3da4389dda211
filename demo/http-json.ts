/** The answer to a JSON HTTP request: status, headers and the parsed body (null when empty). */
export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** Options of one JSON request. */
export interface JsonRequestOptions {
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Abort the request after this many ms; the caller sees a {@link RequestTimeoutError}. */
  readonly timeoutMs?: number;
}

/** The client gave up waiting: the server may or may not have acted on the request. */
export class RequestTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
  ) {
    super(`no answer from ${url} within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

/**
 * Sends one request with an optional JSON body and parses a JSON (or problem+json) answer.
 * Non-2xx statuses are returned, not thrown: callers switch on them. Network failures throw the
 * underlying error; a client-side timeout throws {@link RequestTimeoutError}.
 */
export async function requestJson(
  method: string,
  url: string,
  options: JsonRequestOptions = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs),
    });
  } catch (err) {
    if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
      throw new RequestTimeoutError(url, options.timeoutMs ?? 0);
    }
    throw err;
  }
  const text = await readText(response, url, options.timeoutMs);
  return { status: response.status, headers: response.headers, body: text === '' ? null : JSON.parse(text) };
}

async function readText(response: Response, url: string, timeoutMs: number | undefined): Promise<string> {
  try {
    return await response.text();
  } catch (err) {
    if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
      throw new RequestTimeoutError(url, timeoutMs ?? 0);
    }
    throw err;
  }
}
