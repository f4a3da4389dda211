/**
 * A scripted ledger behind an injected `fetch`, for unit tests of the SDK's protocol: every
 * request is recorded; each route answers from a handler (default: the happy path).
 */
export interface SentRequest {
  readonly method: string;
  readonly path: string;
  readonly body: any;
}

type Handler = (req: SentRequest) => Response | Promise<Response>;

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });

export const problem = (status: number, code: string, extra: Record<string, unknown> = {}, headers = {}) =>
  json(
    status,
    {
      type: `https://operation-ledger.dev/problems/${code}`,
      title: code,
      status,
      detail: code,
      code,
      ...extra,
    },
    headers,
  );

export const OP = '11111111-2222-5333-8444-555555555555';

export const acquired = (extra: Record<string, unknown> = {}) =>
  json(201, {
    operationId: OP,
    state: 'in_progress',
    attempt: 1,
    fencingToken: 1,
    leaseExpiresAt: new Date(Date.now() + 30_000).toISOString(),
    fingerprint: 'f',
    reason: 'first_claim',
    completedSteps: [],
    ...extra,
  });

export class FakeLedger {
  readonly requests: SentRequest[] = [];
  private readonly routes = new Map<string, Handler[]>();

  /** Answers the next request matching `METHOD suffix` with `handler` (queued, once each). */
  on(route: string, ...handlers: Handler[]): this {
    this.routes.set(route, [...(this.routes.get(route) ?? []), ...handlers]);
    return this;
  }

  /** The requests whose path ends with `suffix` (e.g. `/confirm`). */
  sent(suffix: string): SentRequest[] {
    return this.requests.filter((r) => r.path.endsWith(suffix));
  }

  /**
   * Route names of the `/v1` requests in order, e.g. `['claims', 'steps/create/start', 'confirm']`.
   * The client's one `GET /health` (its capabilities, asked before its first run) is left out:
   * `sent('/health')` shows it. By default it is answered 404, as by a ledger without the
   * capabilities list, so the SDK learns the shortcuts from 400 answers.
   */
  get trail(): string[] {
    return this.requests
      .filter((r) => r.path !== '/health')
      .map((r) => r.path.replace(/^\/v1\/(operations\/[^/]+\/)?/, ''));
  }

  readonly fetch = async (input: string, init: RequestInit): Promise<Response> => {
    const url = new URL(input);
    const req: SentRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    this.requests.push(req);
    for (const [route, handlers] of this.routes) {
      const [method, suffix] = route.split(' ') as [string, string];
      if (method === req.method && req.path.endsWith(suffix) && handlers.length > 0) {
        return handlers.shift()!(req);
      }
    }
    return this.fallback(req);
  };

  private fallback(req: SentRequest): Response {
    if (req.path === '/v1/claims') return acquired();
    if (req.path.endsWith('/start'))
      return json(200, { operationId: OP, state: 'in_progress', providerIdempotencyKey: 'pk-1' });
    if (req.path.endsWith('/complete')) return json(200, { operationId: OP, state: 'in_progress' });
    if (req.path.endsWith('/not-performed')) return json(200, { operationId: OP, state: 'in_progress' });
    if (req.path.endsWith('/confirm')) return json(200, { operationId: OP, state: 'confirmed' });
    if (req.path.endsWith('/fail')) return json(200, { operationId: OP, state: 'failed' });
    if (req.path.endsWith('/unknown')) return json(200, { operationId: OP, state: 'unknown' });
    if (req.path.endsWith('/release')) return json(200, { operationId: OP, state: 'released' });
    if (req.path.endsWith('/lease/renew')) return json(200, { operationId: OP, state: 'in_progress' });
    return problem(404, 'not-found');
  }
}
