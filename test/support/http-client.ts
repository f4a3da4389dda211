/** A response as tests inspect it. */
export interface TestResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
}

/**
 * A minimal JSON client over real HTTP (fetch), so tests exercise the server as workers do.
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
    const init: RequestInit = { method, headers };
    if (opts.raw !== undefined || body !== undefined) {
      (init.headers as Record<string, string>)['content-type'] = opts.contentType ?? 'application/json';
      init.body = opts.raw ?? JSON.stringify(body);
    }
    const res = await fetch(this.baseUrl + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* keep text */
    }
    return { status: res.status, headers: res.headers, body: parsed };
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
