import { LedgerRequestError, LedgerUnavailableError } from '../errors.js';
import { errorFromProblem, retryAfterMsOf, toProblem } from '../problem.js';
import { retryDelayMs, retryPolicy, type RetryOptions, type RetryPolicy } from './retry-policy.js';
import { defaultSender } from '#default-sender';
import { fetchSender, type FetchLike, type Sender } from './sender.js';

export type { FetchLike } from './sender.js';

/** How the client reaches the ledger. */
export interface TransportOptions {
  /** Base URL without `/v1`, e.g. `http://127.0.0.1:3000`. */
  readonly baseUrl: string;
  /** API key (`olk_…`), sent as `Authorization: Bearer <token>`; omit when auth is off. */
  readonly token?: string;
  /**
   * Injectable fetch; when given, every request goes through it. Without it, JSON requests go
   * through undici's `Dispatcher.request` on Node and the global `fetch` elsewhere (browsers,
   * Deno, Bun, edge runtimes); streams (SSE, CSV, uploads) use the global `fetch` everywhere.
   * @defaultValue globalThis.fetch
   */
  readonly fetch?: FetchLike;
  /** Client timeout of one request, ms (a timed-out request is retried). @defaultValue 10000 */
  readonly timeoutMs?: number;
  /** Retries of network errors, timeouts and 503s. */
  readonly retry?: RetryOptions;
  /** Extra headers for every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The caller's W3C trace context (https://www.w3.org/TR/trace-context/), asked for on every
   * request and sent as `traceparent` / `tracestate`, so the ledger's spans and the events it
   * records join the worker's trace. With OpenTelemetry:
   * `() => { const h = {}; propagation.inject(context.active(), h); return h; }`.
   * No dependency on a tracing library: whatever returns the two headers works.
   */
  readonly traceContext?: () => { readonly traceparent?: string; readonly tracestate?: string } | undefined;
}

/** A 2xx (or an accepted non-2xx, see `accept`) answer. */
export interface HttpResult<T = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/** Options of one request. */
export interface RequestOptions {
  readonly body?: unknown;
  /** Query parameters; `undefined` values are left out. */
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** Extra headers of this request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Aborts waiting (and the request); the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Read the body as text instead of JSON (CSV exports). */
  readonly text?: boolean;
  /** One attempt only: no retry of a network error, a timeout or a 503. @defaultValue false */
  readonly once?: boolean;
}

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The HTTP layer: JSON in and out, `Authorization: Bearer`, a timeout per request, bounded
 * retries of network errors, timeouts and 503 (honouring `Retry-After`, capped), and refusals
 * thrown as typed errors (`errorFromProblem`). Retrying is safe: every ledger write is idempotent
 * with the same body (a claim's retry answers `in-progress` or replays; worker commands answer
 * `alreadyRecorded`).
 */
export class Transport {
  readonly baseUrl: string;
  private readonly fetchFn: FetchLike;
  private readonly send: Sender;
  private readonly timeoutMs: number;
  private readonly retry: RetryPolicy;
  private readonly headers: Record<string, string>;
  private readonly traceContext: TransportOptions['traceContext'];

  constructor(options: TransportOptions) {
    if (!/^https?:\/\//.test(options.baseUrl))
      throw new TypeError(
        `baseUrl must be an http(s) URL such as http://127.0.0.1:3000, got ${JSON.stringify(options.baseUrl)}`,
      );
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    if (/\/v1$/.test(this.baseUrl))
      throw new TypeError(
        `baseUrl is the ledger's root, without /v1 (e.g. ${this.baseUrl.slice(0, -3)}): the SDK adds /v1 to every path`,
      );
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.send = options.fetch ? fetchSender(this.baseUrl, options.fetch) : defaultSender(this.baseUrl);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retry = retryPolicy(options.retry);
    this.headers = { accept: 'application/json, application/problem+json', ...options.headers };
    if (options.token) this.headers.authorization = `Bearer ${options.token}`;
    this.traceContext = options.traceContext;
  }

  /** The absolute URL of `path` with `query`. */
  url(path: string, query?: RequestOptions['query']): string {
    return `${this.baseUrl}${withQuery(path, query)}`;
  }

  /** Headers every request carries (auth included): for callers that open streams themselves. */
  get defaultHeaders(): Readonly<Record<string, string>> {
    return this.headers;
  }

  /** The raw fetch, for streams (SSE) that manage their own reconnects. */
  get fetch(): FetchLike {
    return this.fetchFn;
  }

  /** `traceparent` / `tracestate` of the caller's current trace, when it gave a source of them. */
  private traceHeaders(): Record<string, string> {
    const c = this.traceContext?.();
    return {
      ...(c?.traceparent ? { traceparent: c.traceparent } : {}),
      ...(c?.tracestate ? { tracestate: c.tracestate } : {}),
    };
  }

  /**
   * Sends one request and returns a 2xx answer.
   * @throws LedgerRequestError (or a subclass) for any 4xx/5xx but 503;
   *   LedgerUnavailableError after the retries; the signal's reason when aborted.
   */
  async request<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<HttpResult<T>> {
    const label = `${method} ${path}`;
    const target = withQuery(path, options.query);
    const headers: Record<string, string> = { ...this.headers, ...this.traceHeaders(), ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let lastStatus: number | null = null;
    let lastError: unknown = null;
    for (let attempt = 1; ; attempt++) {
      options.signal?.throwIfAborted();
      let retryAfter: number | null = null;
      try {
        const deadline = this.deadlineFor(options.signal);
        let res: Awaited<ReturnType<Sender>>;
        try {
          res = await this.send({ method, path: target, headers, body, signal: deadline.signal });
        } finally {
          deadline.clear();
        }
        const text = res.text;
        if (res.status === 503) {
          lastStatus = 503;
          const problem = toProblem(503, parse(text));
          lastError = errorFromProblem(problem, label, res.headers);
          retryAfter = retryAfterMsOf(problem, res.headers, 1000);
        } else if (res.status >= 400) {
          throw errorFromProblem(toProblem(res.status, parse(text)), label, res.headers);
        } else {
          const result: HttpResult<T> = {
            status: res.status,
            // read lazily: undici's sender builds `Headers` only when asked
            get headers() {
              return res.headers;
            },
            body: (options.text ? text : parse(text)) as T,
          };
          return result;
        }
      } catch (err) {
        if (options.signal?.aborted) throw options.signal.reason;
        if (err instanceof LedgerRequestError || !isTransient(err)) throw err;
        lastStatus = null;
        lastError = err;
      }
      if (options.once || attempt >= this.retry.attempts)
        throw new LedgerUnavailableError(label, attempt, lastStatus, lastError, this.baseUrl);
      await sleep(retryDelayMs(this.retry, attempt, retryAfter), options.signal);
    }
  }

  /**
   * The signal of one attempt: aborts with a `TimeoutError` DOMException (as `AbortSignal.timeout`
   * does) after `timeoutMs`, or with `outer`'s reason. Its timer is cleared once the answer is
   * read (`clear`), where `AbortSignal.timeout` would keep one per request until it fires.
   */
  private deadlineFor(outer: AbortSignal | undefined): { signal: AbortSignal; clear: () => void } {
    const ctl = new AbortController();
    const timer = setTimeout(
      () => ctl.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      this.timeoutMs,
    );
    timer.unref();
    const signal = outer ? AbortSignal.any([outer, ctl.signal]) : ctl.signal;
    return { signal, clear: () => clearTimeout(timer) };
  }
}

/** `path` with the query string of `query` (`undefined` values left out). */
function withQuery(path: string, query: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * Network failures and client timeouts (fetch's TypeError / TimeoutError / AbortError, undici's
 * `code`), judged by name and shape: the error may come from another realm.
 */
export function isTransient(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { name, code } = err as { name?: unknown; code?: unknown };
  return (
    name === 'TypeError' ||
    name === 'TimeoutError' ||
    name === 'AbortError' ||
    typeof code === 'string' ||
    typeof code === 'number'
  );
}

function parse(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
