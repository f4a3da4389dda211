import { Agent, request as httpRequest } from 'node:http';

/** A response as tests inspect it. */
export interface TestResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/**
 * Persistent connections for every client of a test file, as a worker's HTTP client keeps them.
 * Node's `http` client rather than `fetch`: a request costs about a quarter of fetch's CPU
 * (≈ 85 against ≈ 370 µs, client and a trivial server in one process), which the suite's tens of
 * thousands of requests feel on two cores. Free sockets do not keep the process alive.
 */
const agent = new Agent({ keepAlive: true });

/**
 * A minimal JSON client over real HTTP (`node:http`, keep-alive), so tests exercise the server as
 * workers do.
 * `raw` sends a string body as is (malformed JSON tests). With a `token` every request carries
 * `Authorization: Bearer <token>` unless `opts.headers` sets its own `authorization`
 * (an empty string sends none).
 */
export class LedgerClient {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  /** The same client acting with another API key (`undefined`: no key at all). */
  as(token: string | undefined): LedgerClient {
    return new LedgerClient(this.baseUrl, token);
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
    opts: { raw?: string; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<TestResponse> {
    const headers: Record<string, string> = this.token ? { authorization: `Bearer ${this.token}` } : {};
    for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name.toLowerCase()] = value;
    if (headers.authorization === '') delete headers.authorization;
    let payload: string | undefined;
    if (opts.raw !== undefined || body !== undefined) {
      headers['content-type'] = opts.contentType ?? 'application/json';
      payload = opts.raw ?? JSON.stringify(body);
    }
    const {
      status,
      headers: answered,
      text,
    } = await exchange(this.baseUrl + path, { method, headers, body: payload });
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep text */
    }
    return { status, headers: answered, body: parsed };
  }

  post(
    path: string,
    body?: unknown,
    opts?: { raw?: string; contentType?: string; headers?: Record<string, string> },
  ) {
    return this.request('POST', path, body, opts);
  }

  get(path: string) {
    return this.request('GET', path);
  }

  claim(key: Record<string, unknown>, payload: unknown, extra: Record<string, unknown> = {}) {
    return this.post('/v1/claims', { key, payload, ...extra });
  }

  op(id: string, action: string, body: unknown) {
    return this.post(`/v1/operations/${id}/${action}`, body);
  }

  history(id: string) {
    return this.get(`/v1/operations/${id}/history`);
  }

  status(id: string) {
    return this.get(`/v1/operations/${id}`);
  }
}

/** What `exchange` answers. */
export interface Exchanged {
  readonly status: number;
  readonly headers: Headers;
  /** The body as UTF-8 text; empty when `stopAt` ended the exchange at the headers. */
  readonly text: string;
}

/**
 * One request on the shared keep-alive agent; a body goes with its `content-length`. `stopAt(status)` true: the exchange ends at the
 * answer's head (a live SSE feed) and its connection is closed. Rejects on a connection error,
 * an invalid header or after `timeoutMs` (default 300 000 ms, as undici's header and body timeouts) without a whole answer.
 */
export function exchange(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
  opts: { stopAt?: (status: number) => boolean; timeoutMs?: number } = {},
): Promise<Exchanged> {
  const headers = { ...init.headers };
  // A whole body with its length, as fetch sends a string body (not chunked).
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method, headers, agent }, (res) => {
      const answered = new Headers();
      for (const [name, value] of Object.entries(res.headers)) {
        if (Array.isArray(value)) for (const one of value) answered.append(name, one);
        else if (value !== undefined) answered.set(name, value);
      }
      const status = res.statusCode ?? 0;
      if (opts.stopAt?.(status)) {
        clearTimeout(timer);
        req.destroy();
        resolve({ status, headers: answered, text: '' });
        return;
      }
      res.setEncoding('utf8');
      let text = '';
      res.on('data', (chunk: string) => (text += chunk));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status, headers: answered, text });
      });
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`no answer within ${opts.timeoutMs ?? 300_000} ms`)),
      opts.timeoutMs ?? 300_000,
    );
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(init.body);
  });
}
