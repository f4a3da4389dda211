// Slow clients (docs/security.md "Limits"): a body that trickles in, or headers that
// never finish, must not hold a connection for Node's defaults (5 min / 1 min). With
// LEDGER_REQUEST_TIMEOUT_MS the server answers 408 and closes; nothing is recorded; other
// requests are served meanwhile.
import { connect, type Socket } from 'node:net';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const TIMEOUT_MS = 1500;
let ledger: TestLedger;
let port: number;

beforeAll(async () => {
  ledger = await startTestLedger('postgres', { requestTimeoutMs: TIMEOUT_MS });
  port = Number(new URL(ledger.url).port);
});
afterAll(() => ledger.close());

/** Opens a raw connection, writes `head`, then a byte of `trickle` every 200 ms; resolves with what the server sent when it closed (or '' after `giveUpMs`). */
function slowClient(
  head: string,
  trickle: string,
  giveUpMs: number,
): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let answer = '';
    let i = 0;
    const drip = setInterval(() => {
      if (i < trickle.length && !socket.destroyed) socket.write(trickle[i++]!);
    }, 200);
    const giveUp = setTimeout(() => finish(false), giveUpMs);
    const finish = (closedByServer: boolean) => {
      clearInterval(drip);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ answer, closedByServer });
    };
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    socket.write(head);
  });
}

const claimBody = JSON.stringify({
  key: { tenant: 'acme', source: 'slow', action: 'invoice.create', subject: 'S-1' },
  payload: { n: 1 },
});

it('answers 408 and closes a connection whose body trickles in, and records nothing', async () => {
  const head =
    `POST /v1/claims HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ledger.rootToken}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${claimBody.length}\r\n\r\n`;
  const slow = slowClient(head, claimBody, 20 * TIMEOUT_MS);
  // Served meanwhile.
  expect((await ledger.client.get('/health/live')).status).toBe(200);
  const { answer, closedByServer } = await slow;
  expect(closedByServer).toBe(true);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  expect((await ledger.store.read('operation-acme/slow/invoice.create/S-1@1')).length).toBe(0);
}, 60_000);

it('closes a connection whose headers never finish', async () => {
  const { closedByServer } = await slowClient(
    'GET /health/live HTTP/1.1\r\nHost: x\r\n',
    'X-Slow: ' + 'a'.repeat(500),
    20 * TIMEOUT_MS,
  );
  expect(closedByServer).toBe(true);
}, 60_000);

it('keeps a live subscription open past the request timeout (it is a response, not a slow request)', async () => {
  const res = await fetch(`${ledger.url}/v1/tenants/acme/operations/changes`, {
    headers: { authorization: `Bearer ${ledger.rootToken}` },
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await reader.read(); // retry + ready
  await new Promise((r) => setTimeout(r, 3 * TIMEOUT_MS));
  const claim = await ledger.client.claim(
    { tenant: 'acme', source: 'slow', action: 'invoice.create', subject: 'S-2' },
    {},
  );
  expect(claim.status).toBe(201);
  let text = '';
  while (!text.includes(claim.body.operationId))
    text += new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
}, 60_000);

/** A CSV destination export of `rows` orphan rows, sent a few rows every 100 ms. */
function slowExport(rows: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent === 0) controller.enqueue(new TextEncoder().encode('id,reference\n'));
      await new Promise((r) => setTimeout(r, 100));
      const lines = Array.from({ length: 5 }, (_, k) => `R-${sent + k},ref-${sent + k}\n`).join('');
      controller.enqueue(new TextEncoder().encode(lines));
      sent += 5;
      if (sent >= rows) controller.close();
    },
  });
}

it('lets a reconciliation upload stream in for longer than the request timeout, as long as bytes keep coming', async () => {
  const started = Date.now();
  const res = await fetch(`${ledger.url}/v1/tenants/acme/reconciliations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ledger.rootToken}`, 'content-type': 'text/csv' },
    body: slowExport(200), // 40 chunks, ~4 s: past the 1.5 s request timeout
    duplex: 'half',
  } as RequestInit);
  expect(Date.now() - started).toBeGreaterThan(2 * TIMEOUT_MS);
  expect(res.status).toBe(202);
  const run = (await res.json()) as { destinationRows: number };
  expect(run.destinationRows).toBe(200);
}, 60_000);

it('answers 408 and closes an upload whose client stops sending (no byte for the request timeout)', async () => {
  const head =
    `POST /v1/tenants/acme/reconciliations HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ledger.rootToken}\r\n` +
    `Content-Type: text/csv\r\nContent-Length: 100000\r\n\r\nid,reference\nR-1,ref-1\n`;
  const { answer, closedByServer } = await slowClient(head, '', 20 * TIMEOUT_MS);
  expect(closedByServer).toBe(true);
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
}, 60_000);
