// Uploads built to exhaust the server: one gzip-compressed line of hundreds of MiB (NDJSON, or a
// CSV field). The upload is refused at the record size cap naming the line, the ledger keeps
// answering, keeps no run, and its memory stays bounded (a memory bound, not a timing one).
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { ReconcileClient } from './support/reconcile-client.js';

const MIB = 1024 ** 2;
/** Decompressed size of each bomb: far over any record cap, and enough to show in the RSS. */
const BOMB_MIB = 256;
/** Most the process may grow while one bomb is refused. */
const RSS_BOUND = 200 * MIB;

let ledger: TestLedger;
let client: ReconcileClient;

beforeAll(async () => {
  ledger = await startTestLedger('postgres');
  client = new ReconcileClient(ledger.url, ledger.rootToken);
});
afterAll(async () => {
  await ledger?.close();
});

/** `head` and then `mib` MiB of `a` without a newline, gzipped while it is sent (never held). */
function gzipBomb(head: string, mib: number): Readable {
  const block = Buffer.alloc(MIB, 'a');
  async function* plain() {
    yield Buffer.from(head);
    for (let i = 0; i < mib; i++) yield block;
  }
  return Readable.from(plain()).pipe(createGzip());
}

/** Posts the bomb and samples this process's RSS (the ledger runs in it) until the answer. */
async function postBomb(head: string, contentType: string) {
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const res = await fetch(`${ledger.url}/v1/tenants/acme/reconciliations?action=a`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ledger.rootToken}`,
        'content-type': contentType,
        'content-encoding': 'gzip',
      },
      body: gzipBomb(head, BOMB_MIB) as unknown as RequestInit['body'],
      duplex: 'half',
    } as RequestInit);
    const body = await res.json();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { status: res.status, body, growth: peak - before };
  } finally {
    clearInterval(sampler);
  }
}

const runs = async () => (await client.get('/v1/tenants/acme/reconciliations')).body.items;

describe('gzip bombs of one huge record', () => {
  it('refuses one NDJSON line of 256 MiB with 413 naming the line, in bounded memory', async () => {
    const r = await postBomb('{"id":"A","reference":"x"}\n{"id":"', 'application/x-ndjson');
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'record-too-large', errors: [{ field: 'rows[2]' }] });
    expect(r.growth).toBeLessThan(RSS_BOUND);
    expect(await runs()).toEqual([]);
  });

  it('refuses one CSV field of 256 MiB with 413 naming the record, in bounded memory', async () => {
    const r = await postBomb('id,reference\nA,x\nB,', 'text/csv');
    expect(r.status).toBe(413);
    expect(r.body).toMatchObject({ code: 'record-too-large', errors: [{ field: 'rows[2]' }] });
    expect(r.growth).toBeLessThan(RSS_BOUND);
    expect(await runs()).toEqual([]);
  });

  it('still takes a good upload afterwards', async () => {
    const ok = await client.start('acme', {}, 'id,reference\r\nREC-1,x\r\n', 'text/csv', true);
    expect(ok.status).toBe(202);
    expect((await client.finished('acme', ok.body.id)).destinationRows).toBe(1);
  });
});
