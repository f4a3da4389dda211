// The HTTP edges a client meets before any route's logic runs: methods a route does not have,
// bodies too large or malformed, query strings, and the headers every answer carries. Pinned so
// that the HTTP platform under the ledger (Fastify) can change without any client noticing.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
});
afterAll(() => ledger.close());

const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });
const auth = () => ({ authorization: `Bearer ${ledger.rootToken}` });

async function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(`${ledger.url}${path}`, { method, headers, body });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    body: text ? (JSON.parse(text) as any) : undefined,
  };
}

describe('methods', () => {
  it('HEAD of a GET route answers its status and headers without a body', async () => {
    const res = await send('HEAD', '/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.text).toBe('');
  });

  it('HEAD of a /v1 route needs a key like its GET', async () => {
    const res = await send('HEAD', '/v1/tenants/acme/operations');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
  });

  it('OPTIONS is not served: 404 problem+json naming the method (no CORS preflight answers)', async () => {
    const res = await send('OPTIONS', '/health');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 404, code: 'not-found', detail: 'Cannot OPTIONS /health' });
    expect(res.headers.get('allow')).toBeNull();
  });

  it('OPTIONS under /v1 is authenticated first (401), then not found', async () => {
    const anonymous = await send('OPTIONS', '/v1/claims');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('unauthenticated');
    const keyed = await send('OPTIONS', '/v1/claims', auth());
    expect(keyed.status).toBe(404);
    expect(keyed.body).toMatchObject({ code: 'not-found', detail: 'Cannot OPTIONS /v1/claims' });
  });

  it('a method the route does not have is 404 problem+json naming method and path', async () => {
    const res = await send('DELETE', '/v1/claims', auth());
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ code: 'not-found', detail: 'Cannot DELETE /v1/claims' });
  });

  it('an unknown path outside /v1 is 404 problem+json with the request id and keep-alive headers', async () => {
    const res = await send('GET', '/nothing-here', { 'x-request-id': 'edge-404' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not-found', detail: 'Cannot GET /nothing-here' });
    expect(res.headers.get('x-request-id')).toBe('edge-404');
    expect(res.headers.get('keep-alive')).toBe('timeout=60');
  });
});

describe('paths', () => {
  it("a path that is not valid percent-encoding is 400 problem+json, not the framework's own JSON", async () => {
    for (const path of ['/%ff', '/v1/claims%']) {
      const res = await send('GET', path, auth());
      expect({ path, status: res.status, type: res.headers.get('content-type') }).toEqual({
        path,
        status: 400,
        type: expect.stringContaining('application/problem+json'),
      });
      expect(res.body).toMatchObject({
        status: 400,
        code: 'validation',
        detail: expect.stringContaining('path'),
      });
    }
  });

  it('a trailing slash and the letter case of the path do not matter (as routes were matched before)', async () => {
    expect((await send('GET', '/health/')).status).toBe(200);
    expect((await send('GET', '/HEALTH')).status).toBe(200);
    expect((await send('GET', '/v1/tenants/acme/operations/', auth())).status).toBe(200);
    const anonymous = await send('GET', '/V1/tenants/acme/operations');
    expect(anonymous.status).toBe(401); // authenticated like its lower-case path
  });

  it("a request line over Node's header limit is answered 431 with Connection: close (the socket is not reused)", async () => {
    const answer = await new Promise<{ status: number; connection: string | undefined }>(
      (resolve, reject) => {
        const req = httpRequest(`${ledger.url}/v1/tenants/${'y'.repeat(20_000)}/operations`, {
          headers: auth(),
        });
        req.on('response', (res) => {
          res.resume();
          resolve({ status: res.statusCode!, connection: res.headers.connection });
        });
        req.on('error', reject);
        req.end();
      },
    );
    expect(answer).toEqual({ status: 431, connection: 'close' });
  });

  it("what Node's parser refuses is answered problem+json with Connection: close: 431, 400 for CL+TE", async () => {
    const big = await rawExchange(
      `GET /v1/tenants/${'y'.repeat(20_000)}/operations HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(big.answers).toHaveLength(1);
    expect(big.answers[0]).toMatchObject({
      status: 431,
      headers: { 'content-type': 'application/problem+json', connection: 'close' },
      body: { status: 431, code: 'validation', detail: expect.stringContaining('headers') },
    });
    const smuggled = await rawExchange(
      'POST /v1/claims HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expect(smuggled.answers).toHaveLength(1);
    expect(smuggled.answers[0]).toMatchObject({
      status: 400,
      headers: { 'content-type': 'application/problem+json', connection: 'close' },
      body: { status: 400, code: 'validation' },
    });
  });

  it('a chunked body cut off by a bad chunk is refused at once (400 problem+json), nothing claimed', async () => {
    const head = `{"key":${JSON.stringify(key('BAD-CHUNK'))},`;
    const { answers } = await rawExchange(
      'POST /v1/claims HTTP/1.1\r\nHost: x\r\n' +
        `Authorization: Bearer ${ledger.rootToken}\r\nContent-Type: application/json\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(head).toString(16)}\r\n${head}\r\nZZ\r\n`,
    );
    expect(answers.map((a) => [a.status, a.body?.code])).toEqual([[400, 'validation']]);
    expect((await ledger.client.claim(key('BAD-CHUNK'), { n: 1 })).status).toBe(201);
  });

  it('a valid claim followed by garbage in one packet gets its own answer first, then a problem+json 400', async () => {
    const claim = JSON.stringify({ key: key('PIPE-GARBAGE'), payload: { n: 1 } });
    const { answers } = await rawExchange(
      'POST /v1/claims HTTP/1.1\r\nHost: x\r\n' +
        `Authorization: Bearer ${ledger.rootToken}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(claim)}\r\n\r\n${claim}` +
        'GARBAGE / NOT-HTTP\r\n\r\n',
    );
    expect(answers.map((a) => a.status)).toEqual([201, 400]);
    expect(answers[0]!.body).toMatchObject({ state: 'in_progress', attempt: 1 });
    expect(answers[1]).toMatchObject({
      headers: { 'content-type': 'application/problem+json', connection: 'close' },
      body: { status: 400, code: 'validation' },
    });
  });

  it('the longest valid step name (128 characters) reaches its route', async () => {
    const claim = await ledger.client.claim(key('LONG-STEP'), { n: 1 });
    expect(claim.status).toBe(201);
    const step = 's'.repeat(128);
    const res = await ledger.client.op(claim.body.operationId, `steps/${step}/start`, {
      fencingToken: claim.body.fencingToken,
    });
    expect(res.status).toBe(200);
    expect(res.body.providerIdempotencyKey).toEqual(expect.any(String));
  });
});

describe('bodies', () => {
  it('a body over the limit is refused 413 problem+json, and nothing is claimed', async () => {
    const body = JSON.stringify({
      key: key('HUGE'),
      payload: { pad: 'x'.repeat(ledger.config.maxBodyBytes) },
    });
    const res = await send('POST', '/v1/claims', { ...auth(), 'content-type': 'application/json' }, body);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 413, code: 'payload-too-large' });
    expect((await ledger.client.claim(key('HUGE'), { n: 1 })).status).toBe(201);
  });

  it('a declared length over the limit is refused 413 problem+json at once, before the body is sent', async () => {
    // the rest never comes: the answer must not wait for it
    const answer = await declaredButNotSent('/v1/claims', ledger.config.maxBodyBytes + 1, '{"key":');
    answer.close();
    expect(answer.status).toBe(413);
    expect(answer.type).toContain('application/problem+json');
    expect(answer.body).toMatchObject({ status: 413, code: 'payload-too-large' });
  });

  it('batch requests refused 413 at once free their slots although their clients keep the connection', async () => {
    // Each refused client holds its socket open and never sends the rest of the declared body: the
    // refusal holds no memory, so it must not hold one of the route's `maxConcurrentBatches` slots.
    const held = await Promise.all(
      Array.from({ length: ledger.config.maxConcurrentBatches + 1 }, () => refusedButHeldOpen()),
    );
    try {
      expect(held.map((h) => h.status)).toEqual(held.map(() => 413));
      const res = await send(
        'POST',
        '/v1/claims/batch',
        { ...auth(), 'content-type': 'application/json' },
        JSON.stringify({ claims: [{ key: key('AFTER-413'), payload: { n: 1 } }] }),
      );
      expect(res.status).toBe(200);
      expect(res.body.results[0]).toMatchObject({ index: 0, status: 201 });
    } finally {
      for (const h of held) h.close();
    }
  });

  it('the batch route reads bodies above the single-request limit, up to its own', async () => {
    const claims = Array.from({ length: 300 }, (_, i) => ({
      key: key(`BIG-${i}`),
      payload: { pad: 'x'.repeat(3500) },
    }));
    const body = JSON.stringify({ claims });
    expect(body.length).toBeGreaterThan(ledger.config.maxBodyBytes);
    const res = await send(
      'POST',
      '/v1/claims/batch',
      { ...auth(), 'content-type': 'application/json' },
      body,
    );
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(300);
    expect(res.body.results[299]).toMatchObject({ index: 299, status: 201 });
  });

  it('malformed JSON is 400 invalid-json naming where the text is wrong', async () => {
    const res = await send(
      'POST',
      '/v1/claims',
      { ...auth(), 'content-type': 'application/json' },
      '{"key": ',
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid-json',
      detail: "Object value expected after ':' at position 8",
    });
  });

  it('a body that is not valid UTF-8 is 400 invalid-json naming the byte offset, not decoded with U+FFFD', async () => {
    const head = Buffer.from(`{"key":${JSON.stringify(key('UTF8-BAD'))},"payload":{"name":"caf`);
    const body = Buffer.concat([head, Buffer.from([0xe9]), Buffer.from('"}}')]); // Latin-1 é
    const res = await fetch(`${ledger.url}/v1/claims`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(await res.json()).toMatchObject({
      code: 'invalid-json',
      detail: `the body is not valid UTF-8: invalid byte at byte offset ${head.length}`,
    });
    expect((await ledger.client.claim(key('UTF8-BAD'), { name: 'café' })).status).toBe(201);
  });

  it('numbers are kept exactly as sent; one a double cannot carry is refused, naming it', async () => {
    const ok = await send(
      'POST',
      '/v1/claims',
      { ...auth(), 'content-type': 'application/json' },
      `{"key":${JSON.stringify(key('NUM-1'))},"payload":{"amount":9007199254740991,"rate":0.1}}`,
    );
    expect(ok.status).toBe(201);
    const history = await ledger.client.history(ok.body.operationId);
    expect(history.body.events[0].data.payload).toEqual({ amount: 9007199254740991, rate: 0.1 });
    const big = await send(
      'POST',
      '/v1/claims',
      { ...auth(), 'content-type': 'application/json' },
      `{"key":${JSON.stringify(key('NUM-2'))},"payload":{"amount":9007199254740993}}`,
    );
    expect(big.status).toBe(400);
    expect(big.body.code).toBe('invalid-json');
    expect(big.body.detail).toContain('9007199254740993');
  });

  it('a Content-Encoding other than identity is 415 naming the header, whether or not the body is compressed', async () => {
    const json = (subject: string) => JSON.stringify({ key: key(subject), payload: { n: 1 } });
    const headers = { ...auth(), 'content-type': 'application/json', 'content-encoding': 'gzip' };
    const plain = await send('POST', '/v1/claims', headers, json('ENC-PLAIN'));
    const gzipped = await fetch(`${ledger.url}/v1/claims`, {
      method: 'POST',
      headers,
      body: gzipSync(json('ENC-GZIP')),
    });
    const gzippedBody = await gzipped.json();
    for (const res of [plain, { status: gzipped.status, body: gzippedBody }]) {
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({
        code: 'unsupported-media-type',
        errors: [{ field: 'content-encoding', message: expect.stringContaining('gzip') }],
      });
    }
    // nothing was recorded: both keys are still free
    expect((await ledger.client.claim(key('ENC-PLAIN'), { n: 1 })).status).toBe(201);
    expect((await ledger.client.claim(key('ENC-GZIP'), { n: 1 })).status).toBe(201);
    const identity = await send(
      'POST',
      '/v1/claims',
      { ...headers, 'content-encoding': 'identity' },
      json('ENC-IDENTITY'),
    );
    expect(identity.status).toBe(201);
  });

  it('a charset other than UTF-8 is 415 naming content-type; charset=utf-8 is accepted', async () => {
    const json = (subject: string) => JSON.stringify({ key: key(subject), payload: { n: 1 } });
    const latin1 = await send(
      'POST',
      '/v1/claims',
      { ...auth(), 'content-type': 'application/json; charset=ISO-8859-1' },
      json('CHARSET-LATIN1'),
    );
    expect(latin1.status).toBe(415);
    expect(latin1.body).toMatchObject({
      code: 'unsupported-media-type',
      errors: [{ field: 'content-type', message: expect.stringContaining('iso-8859-1') }],
    });
    expect((await ledger.client.claim(key('CHARSET-LATIN1'), { n: 1 })).status).toBe(201);
    const utf8 = await send(
      'POST',
      '/v1/claims',
      { ...auth(), 'content-type': 'application/json; charset="UTF-8"' },
      json('CHARSET-UTF8'),
    );
    expect(utf8.status).toBe(201);
  });

  it('a member name given twice with the same value is kept once; with another value it is refused', async () => {
    const same = await send(
      'POST',
      '/v1/claims',
      { ...auth(), 'content-type': 'application/json' },
      `{"key":${JSON.stringify(key('DUP-SAME'))},"payload":{"amount":5,"amount":5}}`,
    );
    expect(same.status).toBe(201);
    const single = await ledger.client.claim(key('DUP-SAME'), { amount: 5 });
    expect(single.status).toBe(409); // the same operation and fingerprint: in progress, no conflict
    expect(single.body.code).toBe('in-progress');
    const history = await ledger.client.history(same.body.operationId);
    expect(history.body.events[0].data.payload).toEqual({ amount: 5 });
    const other = await send(
      'POST',
      '/v1/claims',
      { ...auth(), 'content-type': 'application/json' },
      `{"key":${JSON.stringify(key('DUP-OTHER'))},"payload":{"amount":5,"amount":6}}`,
    );
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 'invalid-json', detail: expect.stringContaining("'amount'") });
  });

  it('a JSON body on a GET route is read and ignored, not refused', async () => {
    const res = await send('GET', '/health', { 'content-type': 'application/json', 'content-length': '0' });
    expect(res.status).toBe(200);
  });
});

describe('headers', () => {
  it('two Authorization headers are 400 naming the header, not "the first wins"', async () => {
    const { answers } = await rawExchange(
      'GET /v1/tenants/acme/operations HTTP/1.1\r\nHost: x\r\n' +
        `Authorization: Bearer ${ledger.rootToken}\r\nAuthorization: Bearer olk_other\r\n` +
        'Connection: close\r\n\r\n',
    );
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      status: 400,
      headers: { 'content-type': expect.stringContaining('application/problem+json') },
      body: { code: 'validation', errors: [{ field: 'authorization' }] },
    });
  });
});

describe('refusals before the route ran', () => {
  it('are timed under the route template Fastify matched, not `unmatched` (a 401 of GET one operation)', async () => {
    const id = '6a125c70-83f5-5fd2-a2f8-7619343d7c57';
    expect((await send('GET', `/v1/operations/${id}`)).status).toBe(401);
    const metrics = await (await fetch(`${ledger.url}/metrics`, { headers: auth() })).text();
    expect(metrics).toMatch(
      /ledger_http_request_duration_seconds_count\{method="GET",route="\/v1\/operations\/:operationId",status="401"\} [1-9]/,
    );
  });
});

describe('query strings', () => {
  it('a repeated parameter is checked in every value (400 validation naming it)', async () => {
    const res = await send('GET', '/v1/tenants/acme/operations?action=ok&action=%00', auth());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
    expect(JSON.stringify(res.body.errors)).toContain('action');
  });

  it('an integer parameter takes decimal digits only: 0x10, 1e1 and 16.0 are 400 naming it', async () => {
    for (const limit of ['0x10', '1e1', '16.0', ' 16', '']) {
      const res = await send('GET', `/v1/tenants/acme/operations?limit=${encodeURIComponent(limit)}`, auth());
      expect({ limit, status: res.status, code: res.body.code }).toEqual({
        limit,
        status: 400,
        code: 'validation',
      });
      expect(res.body.errors[0].field).toBe('limit');
    }
    expect((await send('GET', '/v1/tenants/acme/operations?limit=16', auth())).status).toBe(200);
  });

  it('__proto__, constructor and prototype are refused like any unknown parameter', async () => {
    for (const name of ['__proto__', 'constructor', 'prototype', '__proto__[x]']) {
      const res = await send('GET', `/v1/tenants/acme/operations?${name}=x`, auth());
      expect({ name, status: res.status, code: res.body.code }).toEqual({
        name,
        status: 400,
        code: 'validation',
      });
      expect(res.body.errors[0]).toEqual({ field: name, message: `property ${name} should not exist` });
    }
  });

  it('an unpaired surrogate in a bracketed parameter name is refused too', async () => {
    const res = await send('GET', '/v1/tenants/acme/operations?action%5Bx%5D=%ED%A0%80', auth());
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation');
  });
});

/**
 * A POST to `path` declaring `declared` bytes of JSON and sending only `first`; resolves with the
 * answer while the client keeps its socket open (until `close`).
 */
function declaredButNotSent(
  path: string,
  declared: number,
  first: string,
): Promise<{ status: number; type: string; body: any; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${ledger.url}${path}`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json', 'content-length': String(declared) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          type: String(res.headers['content-type']),
          body: JSON.parse(text),
          close: () => req.destroy(),
        }),
      );
    });
    req.on('error', reject);
    req.write(first);
  });
}

/** A batch request declaring a body over the batch limit, answered, whose client keeps its socket. */
function refusedButHeldOpen(): Promise<{ status: number; close: () => void }> {
  return declaredButNotSent('/v1/claims/batch', ledger.config.maxBatchBodyBytes + 1, '{"claims":[');
}

/** One answer read off a raw connection: status, lower-case headers, the body parsed as JSON. */
interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: any;
}

/**
 * Writes `bytes` on a fresh TCP connection in one packet and reads every answer until the server
 * closes it (or 5 s pass), parsing each `Content-Length`-framed HTTP/1.1 answer.
 */
function rawExchange(bytes: string): Promise<{ answers: RawAnswer[] }> {
  const { hostname, port } = new URL(ledger.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('close', () => {
      clearTimeout(timer);
      let rest = Buffer.concat(chunks).toString('latin1');
      const answers: RawAnswer[] = [];
      while (rest.startsWith('HTTP/1.1 ')) {
        const end = rest.indexOf('\r\n\r\n');
        const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const length = Number(headers['content-length'] ?? 0);
        const text = Buffer.from(rest.slice(end + 4, end + 4 + length), 'latin1').toString('utf8');
        answers.push({
          status: Number(statusLine!.split(' ')[1]),
          headers,
          body: text ? JSON.parse(text) : undefined,
        });
        rest = rest.slice(end + 4 + length);
      }
      resolve({ answers });
    });
  });
}
