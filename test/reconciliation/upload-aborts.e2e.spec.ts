// Uploads that fail or go away before the ledger reads them, and uploads slower than a batch per
// 30 s, against a ledger on PostgreSQL (whose run-row write leaves the window open). Found by a
// breaker: a plain CSV body past the byte limit, or a client that reset its connection while the
// run row was written, killed the server (an 'error' event nobody listened to); a client gone
// before the handler ran left the run `receiving` and the request waiting forever; an upload
// sending one row a second was failed as abandoned after 30 s and answered 202 `failed` (a run
// failed under its upload now answers 409 `upload-abandoned`).
import { connect } from 'node:net';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../../src/event-store/sql-executor.token.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { ReconcileClient } from './support/reconcile-client.js';

let ledger: TestLedger;
let small: TestLedger;
let operator: ReconcileClient;

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  operator = new ReconcileClient(
    ledger.url,
    (await ledger.createKey({ tenant: 'acme', roles: ['operator', 'auditor'] })).token,
  );
  process.env.LEDGER_RECONCILIATION_MAX_BYTES = '64';
  try {
    small = await startTestLedger('postgres');
  } finally {
    delete process.env.LEDGER_RECONCILIATION_MAX_BYTES;
  }
}, 60_000);
afterAll(async () => {
  await ledger?.close();
  await small?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Sends the request line, headers (a Content-Length far past what follows) and `body` on a raw
 * socket, then resets the connection after `afterMs`.
 */
async function abandon(
  url: string,
  method: string,
  path: string,
  token: string,
  body: string,
  afterMs: number,
) {
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${token}\r\n` +
      `content-type: text/csv\r\ncontent-length: ${body.length + 100_000}\r\n\r\n${body}`,
  );
  await sleep(afterMs);
  socket.resetAndDestroy();
}

/** Starts a chunked CSV upload of a destination export on a raw socket; `chunk` sends one chunk. */
async function chunkedUpload(closeAfter: boolean) {
  const { port } = new URL(ledger.url);
  const socket = connect(Number(port), '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.write(
    `POST /v1/tenants/acme/reconciliations HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${operator.token}\r\n` +
      `content-type: text/csv\r\ntransfer-encoding: chunked\r\n${closeAfter ? 'connection: close\r\n' : ''}\r\n`,
  );
  const chunk = (s: string) => socket.write(`${Buffer.byteLength(s).toString(16)}\r\n${s}\r\n`);
  return { socket, chunk };
}

const receiving = async (sql: SqlExecutor) =>
  (await sql.query(`select id from ledger_reconciliations where status = 'receiving'`)).rows.length;

it('answers 413 to a plain body past the byte limit and keeps serving', async () => {
  const big = 'id,reference\r\n' + Array.from({ length: 20 }, (_, i) => `REC-${i},ref-${i}`).join('\r\n');
  const client = new ReconcileClient(small.url, small.rootToken);
  const r = await client.start('acme', {}, big, 'text/csv', false);
  expect(r.status).toBe(413);
  expect(r.body).toMatchObject({ code: 'payload-too-large' });
  expect((await fetch(`${small.url}/health/live`)).status).toBe(200);
  expect(await receiving(small.app.get<SqlExecutor>(SQL_EXECUTOR))).toBe(0);
});

it('survives clients that reset mid-upload, and keeps no run of theirs', async () => {
  const csv = 'id,reference\r\n' + 'REC-1,5f0c4e0a-2a43-5a43-9a43-000000000001\r\n'.repeat(5);
  for (const afterMs of [0, 0, 1, 1, 2, 5, 20]) {
    await abandon(ledger.url, 'POST', '/v1/tenants/acme/reconciliations', operator.token, csv, afterMs);
  }
  await sleep(500);
  expect((await fetch(`${ledger.url}/health/live`)).status).toBe(200);
  expect(await receiving(ledger.app.get<SqlExecutor>(SQL_EXECUTOR))).toBe(0);
});

it('puts a run back to awaiting_source when its source upload is abandoned, at once or later', async () => {
  const created = await operator.start(
    'acme',
    { action: 'invoice.create', awaitSource: 'true' },
    'id,reference\r\nREC-1,x\r\n',
    'text/csv',
  );
  expect(created.status).toBe(202);
  const id = created.body.id as string;
  const intents = 'key.source,key.subject\r\n' + 'shop,ORD-1\r\n'.repeat(5);
  for (const afterMs of [0, 0, 0, 1, 1, 2, 20]) {
    await abandon(
      ledger.url,
      'PUT',
      `/v1/tenants/acme/reconciliations/${id}/source`,
      operator.token,
      intents,
      afterMs,
    );
  }
  await sleep(500);
  expect((await operator.get(`/v1/tenants/acme/reconciliations/${id}`)).body.status).toBe('awaiting_source');
});

it('keeps a slow upload alive: its heartbeat moves while rows trickle in, before any batch is written', async () => {
  const { socket, chunk } = await chunkedUpload(false);
  chunk('id,reference\r\n');
  const sql = ledger.app.get<SqlExecutor>(SQL_EXECUTOR);
  const beat = async () =>
    (
      await sql.query<{ age: number }>(
        `select extract(epoch from now() - heartbeat_at)::float8 as age from ledger_reconciliations
          where status = 'receiving' order by created_at desc limit 1`,
      )
    ).rows.map((r) => Number(r.age));
  for (let i = 0; i < 8; i++) {
    chunk(`REC-${i},ref-${i}\r\n`);
    await sleep(1000);
  }
  const ages = await beat();
  expect(ages).toHaveLength(1);
  // 8 s into the upload without a batch written: a heartbeat only per batch would be 8 s old
  expect(ages[0]).toBeLessThan(6.5);
  socket.write('0\r\n\r\n');
  const answer = await new Promise<string>((resolve) => {
    let text = '';
    socket.on('data', (d) => {
      text += d;
      if (text.includes('\r\n\r\n') && /"status"/.test(text)) resolve(text);
    });
  });
  socket.destroy();
  expect(answer).toMatch(/^HTTP\/1\.1 202/);
  expect(answer).toMatch(/"status":"queued"|"status":"running"|"status":"completed"/);
}, 30_000);

it('answers 409 upload-abandoned, not 202, when the run was failed while its upload came in', async () => {
  const { socket, chunk } = await chunkedUpload(true);
  chunk('id,reference\r\nREC-1,ref-1\r\n');
  const sql = ledger.app.get<SqlExecutor>(SQL_EXECUTOR);
  let failed = 0;
  for (let i = 0; i < 50 && failed === 0; i++) {
    await sleep(100);
    // what the stale-upload check does once the run's lease lapsed (the database unreachable 30 s)
    failed = (
      await sql.query(
        `update ledger_reconciliations set status = 'failed', error = 'the upload was interrupted'
          where status = 'receiving' returning id`,
      )
    ).rows.length;
  }
  expect(failed).toBe(1);
  socket.write('0\r\n\r\n');
  let answer = '';
  socket.on('data', (d) => (answer += d));
  await new Promise((r) => socket.once('close', r));
  expect(answer).toMatch(/^HTTP\/1\.1 409/);
  expect(answer).toMatch(/"code":"upload-abandoned"/);
  expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json/i);
  expect(answer).toMatch(
    /"detail":"reconciliation [0-9a-f-]{36} was failed while its upload came in \(the upload was interrupted\); upload the file again"/,
  );
}, 30_000);
