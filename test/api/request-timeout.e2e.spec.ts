// A request that does not arrive within LEDGER_REQUEST_TIMEOUT_MS is answered 408 and its
// connection closed (src/common/request-deadline.ts): in problem+json like every other refusal,
// and the batch slot it held is free again.
import { connect } from 'node:net';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const TIMEOUT_MS = 1500;
const SLOTS = 2;
let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite', { requestTimeoutMs: TIMEOUT_MS, maxConcurrentBatches: SLOTS });
});
afterAll(() => ledger.close());

/**
 * Writes `head` on a raw connection and resolves with the server's answer, once the server closed
 * the connection or the answer is complete (its Content-Length received).
 */
function rawExchange(head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(Number(new URL(ledger.url).port), '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      const end = answer.indexOf('\r\n\r\n');
      const length = /content-length: *(\d+)/i.exec(answer.slice(0, end));
      if (end >= 0 && length && answer.length - end - 4 >= Number(length[1])) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
    socket.write(head);
  });
}

/** The status, headers (lower-case names) and body of a raw HTTP/1.1 answer. */
function parseAnswer(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

it('batch clients that declare a body and never send it get 408 problem+json, and free their slots', async () => {
  const head =
    `POST /v1/claims/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ledger.rootToken}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{"claims":[`;
  const answers = (await Promise.all(Array.from({ length: SLOTS + 2 }, () => rawExchange(head)))).map(
    parseAnswer,
  );
  const timedOut = answers.filter((a) => a.status === 408);
  expect(timedOut).toHaveLength(SLOTS); // the others were refused 429 at once
  for (const answer of timedOut) {
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.headers.connection).toBe('close');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).toEqual({
      type: expect.stringContaining('request-timeout'),
      title: expect.any(String),
      status: 408,
      code: 'request-timeout',
      detail: `the request did not arrive within ${TIMEOUT_MS} ms`,
    });
  }
  const res = await fetch(`${ledger.url}/v1/claims/batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ledger.rootToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      claims: [{ key: { tenant: 'acme', source: 'shop', action: 'a.b', subject: 'AFTER-408' }, payload: {} }],
    }),
  });
  expect(res.status).toBe(200);
}, 30_000);

it("a request whose headers never finish gets 408 problem+json too (Node's own answer had no body)", async () => {
  const answer = parseAnswer(await rawExchange('GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: a'));
  expect(answer.status).toBe(408);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(answer.headers.connection).toBe('close');
  expect(JSON.parse(answer.body)).toMatchObject({
    status: 408,
    code: 'request-timeout',
    detail: `the request's headers did not arrive within ${TIMEOUT_MS} ms`,
  });
}, 30_000);

it('a request Node cannot parse is still answered as Node does: 400 with Connection: close', async () => {
  const answer = parseAnswer(await rawExchange('GARBAGE\r\n\r\n'));
  expect(answer).toMatchObject({ status: 400, headers: { connection: 'close' } });
}, 30_000);

it('a request answered before its body came (401) is still cut once its body takes too long', async () => {
  // A breaker held 50 connections open indefinitely without a key: each got its 401 at once,
  // then sent one byte of its declared 1 MB body every few seconds.
  const socket = connect(Number(new URL(ledger.url).port), '127.0.0.1');
  socket.on('error', () => undefined);
  let answer = '';
  socket.on('data', (d) => (answer += d.toString('latin1')));
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  const started = Date.now();
  socket.write(
    `POST /v1/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{`,
  );
  const trickle = setInterval(() => socket.writable && socket.write(' '), 300);
  try {
    const end = await Promise.race([
      closed,
      new Promise<'open'>((r) => setTimeout(() => r('open'), TIMEOUT_MS * 4)),
    ]);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(end).not.toBe('open'); // closed by the server within its bound (and a sweep)
    expect((end as number) - started).toBeLessThan(TIMEOUT_MS * 4);
  } finally {
    clearInterval(trickle);
    socket.destroy();
  }
});
