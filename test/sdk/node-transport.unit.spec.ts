// On Node the SDK sends its JSON requests through undici's Dispatcher.request instead of the
// global fetch (packages/client/README.md "`new LedgerClient(options)`", Transport); everything a
// worker relies on must behave as over fetch: path prefix and query, headers, problem+json refusals, Retry-After, retries, timeouts, abort.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import {
  InProgressError,
  LedgerClient,
  LedgerUnavailableError,
  PayloadConflictError,
} from '@operation-ledger/client';
import { MockAgent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Answer = (req: Seen, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];
const answers: Answer[] = [];
const realFetch = globalThis.fetch;
let fetchCalls = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const s = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      (answers.shift() ?? ok({ ok: true }))(s, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  answers.length = 0;
  fetchCalls = 0;
  globalThis.fetch = (...args: Parameters<typeof fetch>) => {
    fetchCalls++;
    return realFetch(...args);
  };
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

const ok =
  (body: unknown, status = 200, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const problem =
  (status: number, code: string, extra: object = {}, headers: Record<string, string> = {}): Answer =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/problem+json', ...headers });
    res.end(
      JSON.stringify({ type: `https://operation-ledger.dev/problems/${code}`, status, code, ...extra }),
    );
  };

it('sends JSON requests without the global fetch: path prefix, query, headers and body arrive', async () => {
  answers.push(ok({ items: [] }, 200, { 'x-extra': 'a' }));
  const sdk = new LedgerClient({ baseUrl: `${baseUrl}/ledger/`, token: 'olk_t', headers: { 'x-w': '1' } });
  const res = await sdk.transport.request('POST', '/v1/claims', {
    body: { a: 1 },
    query: { limit: 5, skip: undefined },
  });
  expect(res).toMatchObject({ status: 200, body: { items: [] } });
  expect(res.headers.get('x-extra')).toBe('a');
  expect(seen[0]).toMatchObject({ method: 'POST', url: '/ledger/v1/claims?limit=5', body: '{"a":1}' });
  expect(seen[0]!.headers).toMatchObject({
    authorization: 'Bearer olk_t',
    'content-type': 'application/json',
    'x-w': '1',
  });
  expect(fetchCalls).toBe(0);
});

it('a refusal is the typed error of its problem code, Retry-After read from the header', async () => {
  answers.push(problem(422, 'payload-conflict', { existingFingerprint: 'e' }));
  answers.push(problem(409, 'in-progress', {}, { 'retry-after': '3' }));
  const sdk = new LedgerClient({ baseUrl });
  const conflict = sdk.transport.request('POST', '/v1/claims', { body: {} });
  await expect(conflict).rejects.toBeInstanceOf(PayloadConflictError);
  await expect(conflict).rejects.toMatchObject({ existingFingerprint: 'e', status: 422 });
  const busy = sdk.transport.request('POST', '/v1/claims', { body: {} });
  await expect(busy).rejects.toBeInstanceOf(InProgressError);
  await expect(busy).rejects.toMatchObject({ retryAfterMs: 3000 });
});

it('a 503 is retried (Retry-After honoured, capped), then answered', async () => {
  answers.push(problem(503, 'store-unavailable', {}, { 'retry-after': '1' }), ok({ done: true }));
  const sdk = new LedgerClient({ baseUrl, retry: { maxDelayMs: 5 } });
  expect((await sdk.transport.request('GET', '/v1/x')).body).toEqual({ done: true });
  expect(seen).toHaveLength(2);
});

it('a request that outlives timeoutMs is retried, and ends as LedgerUnavailableError', async () => {
  const stall: Answer = () => undefined; // never answers
  answers.push(stall, stall);
  const sdk = new LedgerClient({ baseUrl, timeoutMs: 50, retry: { attempts: 2, baseDelayMs: 1 } });
  const late = sdk.transport.request('GET', '/v1/slow');
  await expect(late).rejects.toBeInstanceOf(LedgerUnavailableError);
  await expect(late).rejects.toThrow(/after 2 attempt\(s\).*timeout/);
  expect(seen).toHaveLength(2);
});

it("the caller's abort ends the request with the signal's reason, not retried", async () => {
  answers.push(() => undefined);
  const sdk = new LedgerClient({ baseUrl });
  const controller = new AbortController();
  const pending = sdk.transport.request('GET', '/v1/slow', { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('shutting down')), 20);
  await expect(pending).rejects.toThrow('shutting down');
  expect(seen).toHaveLength(1);
});

it('an injected fetch still carries every request', async () => {
  let calls = 0;
  const sdk = new LedgerClient({
    baseUrl,
    fetch: (input, init) => {
      calls++;
      return realFetch(input, init);
    },
  });
  expect((await sdk.transport.request('GET', '/v1/x')).body).toEqual({ ok: true });
  expect(calls).toBe(1);
});

it("honours undici's global dispatcher as fetch does (a proxy agent, a MockAgent)", async () => {
  const mock = new MockAgent();
  mock.disableNetConnect();
  mock
    .get('http://ledger.test')
    .intercept({ path: '/v1/operations/x', method: 'GET' })
    .reply(200, { state: 'confirmed' }, { headers: { 'content-type': 'application/json' } });
  const before = getGlobalDispatcher();
  setGlobalDispatcher(mock);
  try {
    const sdk = new LedgerClient({ baseUrl: 'http://ledger.test' });
    expect((await sdk.transport.request('GET', '/v1/operations/x')).body).toEqual({ state: 'confirmed' });
  } finally {
    setGlobalDispatcher(before);
    await mock.close();
  }
});
