// The batch route's slots (`maxConcurrentBatches`) bound how many batch bodies the server holds at
// once. A slot lives as long as its batch does: a client that hangs up once its body is sent does
// not end the handling of that body, so it must not free the slot; a request that never reaches
// the handler (its body never came, or was refused) must not keep one.
import { request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { jest } from '@jest/globals';
import { ApiKeyService } from '../../src/auth/api-key.service.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const SLOTS = 2;
let ledger: TestLedger;
beforeAll(async () => {
  ledger = await startTestLedger('pglite', { maxConcurrentBatches: SLOTS });
});
afterAll(() => ledger.close());

const key = (subject: string) => ({ tenant: 'acme', source: 'shop', action: 'invoice.create', subject });
const batchOf = (subject: string) => JSON.stringify({ claims: [{ key: key(subject), payload: { n: 1 } }] });

/** POSTs a one-claim batch and answers its status, or 'no answer' when none came within `ms`. */
async function batchStatus(
  subject: string,
  ms: number,
  path = '/v1/claims/batch',
): Promise<number | 'no answer'> {
  try {
    const res = await fetch(`${ledger.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ledger.rootToken}`, 'content-type': 'application/json' },
      body: batchOf(subject),
      signal: AbortSignal.timeout(ms),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'no answer';
  }
}

/** Resolves once the server has seen `count` more batch requests close (their clients gone). */
function serverSeesClosed(count: number): Promise<void> {
  const server = ledger.app.getHttpServer() as Server;
  return new Promise((resolve) => {
    let left = count;
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      if (!req.url?.includes('/claims/batch')) return; // (middie strips the /v1 of the middleware path)
      res.once('close', () => {
        if (--left === 0) {
          server.off('request', onRequest);
          resolve();
        }
      });
    };
    server.on('request', onRequest);
  });
}

/** Sends `body` to the batch route with `headers` and destroys the socket at once. */
function sendAndHangUp(body: string, headers: Record<string, string>, declared = Buffer.byteLength(body)) {
  const req = httpRequest(`${ledger.url}/v1/claims/batch`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(declared), ...headers },
  });
  req.on('error', () => undefined);
  req.write(body, () => setTimeout(() => req.destroy(), 20));
}

it('a client that hangs up once its batch is sent keeps its slot until the batch is handled', async () => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const append = ledger.store.append.bind(ledger.store);
  let reached = 0;
  const slowAppend = jest.spyOn(ledger.store, 'append').mockImplementation(async (...args) => {
    reached++;
    await gate; // the store is slow: the handlers are still deciding when their clients leave
    return append(...args);
  });
  try {
    const closed = serverSeesClosed(SLOTS);
    for (let i = 0; i < SLOTS; i++) {
      sendAndHangUp(batchOf(`GONE-${i}`), { authorization: `Bearer ${ledger.rootToken}` });
    }
    await closed;
    while (reached < SLOTS) await new Promise((r) => setTimeout(r, 10));
    // Both batches are still being handled: a further one is refused, not read into memory.
    expect(await batchStatus('WHILE-HANDLED', 3000)).toBe(429);
    // the route matches whatever the letter case or a trailing slash: so does its limit
    expect(await batchStatus('WHILE-HANDLED', 3000, '/V1/Claims/BATCH/')).toBe(429);
    open();
    let after: number | 'no answer' = 429;
    for (let tries = 0; after === 429 && tries < 100; tries++) {
      await new Promise((r) => setTimeout(r, 50));
      after = await batchStatus('AFTER-HANDLED', 5000);
    }
    expect(after).toBe(200);
    // the batches whose clients left were handled to the end
    for (let i = 0; i < SLOTS; i++) {
      expect((await ledger.client.claim(key(`GONE-${i}`), { n: 1 })).status).toBe(409);
    }
  } finally {
    open();
    slowAppend.mockRestore();
  }
});

it('requests that never reach the handler free their slots: aborted mid-body, invalid JSON, unauthenticated', async () => {
  const root = { authorization: `Bearer ${ledger.rootToken}` };
  const closed = serverSeesClosed(SLOTS * 3);
  for (let i = 0; i < SLOTS; i++) {
    sendAndHangUp('{"claims":[', root, 1024 * 1024); // the rest never comes
    sendAndHangUp('{"claims":[}', root); // 400 invalid-json
    sendAndHangUp(batchOf(`ANON-${i}`), {}, 1024 * 1024); // 401, before its body is read
  }
  await closed;
  expect(await batchStatus('AFTER-REFUSED', 5000)).toBe(200);
});

it('a client that hangs up while its key is being looked up frees its slot (a breaker leaked every slot so)', async () => {
  // The key lookup (a database read when the key is not cached) ends after the connection closed:
  // the slot was taken for a response that had already closed, and never freed.
  const keys = ledger.app.get(ApiKeyService);
  const authenticate = keys.authenticate.bind(keys);
  const slowLookup = jest.spyOn(keys, 'authenticate').mockImplementation(async (token) => {
    await new Promise((r) => setTimeout(r, 300));
    return authenticate(token);
  });
  try {
    const closed = serverSeesClosed(SLOTS * 2);
    for (let i = 0; i < SLOTS; i++) {
      sendAndHangUp('{"claims":[', { authorization: `Bearer ${ledger.rootToken}` }, 1024 * 1024);
      sendAndHangUp(batchOf(`LOOKUP-${i}`), { authorization: `Bearer ${ledger.rootToken}` });
    }
    await closed;
    await new Promise((r) => setTimeout(r, 500)); // the lookups end after the hang-ups
  } finally {
    slowLookup.mockRestore();
  }
  expect(await batchStatus('AFTER-LOOKUP', 5000)).toBe(200);
});
