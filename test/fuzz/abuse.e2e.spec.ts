// Abuse of a real server process (docs/security.md "Limits"): 20 concurrent 16 MiB
// batch bodies (bounded memory, answers 200/413/429/503, never a crash) and many idle live
// subscriptions across keys (the per-key cap holds, the server keeps serving). Sizes:
// LEDGER_ABUSE_SSE_KEYS (20 keys here, × 11 connections; `npm run fuzz` opens 5 000+) and
// LEDGER_ABUSE_BATCHES (20).
import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueKey, newAdminToken, spawnServer, type ServerProcess } from '../fault/spawned-server.js';
import { seedPgliteDataDir } from '../support/pglite-snapshot.js';

const SSE_KEYS = Number(process.env['LEDGER_ABUSE_SSE_KEYS'] ?? 20);
const BATCHES = Number(process.env['LEDGER_ABUSE_BATCHES'] ?? 20);
const MIB = 1024 * 1024;
const dataDir = mkdtempSync(join(tmpdir(), 'ledger-abuse-'));
const adminToken = newAdminToken();
let server: ServerProcess;
let worker: string;

beforeAll(async () => {
  await seedPgliteDataDir(dataDir);
  server = await spawnServer({
    LEDGER_STORE: 'pglite',
    LEDGER_DATA_DIR: dataDir,
    LEDGER_ADMIN_TOKEN: adminToken,
  });
  worker = await issueKey(server.url, adminToken, 'acme', ['worker']);
}, 120_000);
afterAll(async () => {
  await server?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Peak and current resident memory of the server process, bytes (/proc/<pid>/status). */
function memory(): { peak: number; now: number } {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { peak: kb('VmHWM'), now: kb('VmRSS') };
}

async function claimWorks(subject: string): Promise<number> {
  const res = await fetch(`${server.url}/v1/claims`, {
    method: 'POST',
    headers: { authorization: `Bearer ${worker}`, 'content-type': 'application/json' },
    body: JSON.stringify({ key: { tenant: 'acme', source: 'abuse', action: 'a', subject }, payload: {} }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** A batch body of about `bytes`: claims for another tenant (refused per slot, nothing stored). */
function batchBody(bytes: number): Buffer {
  const filler = 'x'.repeat(30_000);
  const claim = (i: number) =>
    JSON.stringify({
      key: { tenant: 'globex', source: 'abuse', action: 'a', subject: `B-${i}` },
      payload: { filler },
    });
  const items: string[] = [];
  let size = 12;
  for (let i = 0; size < bytes - 40_000 && items.length < 500; i++) {
    const c = claim(i);
    items.push(c);
    size += c.length + 1;
  }
  const body = `{"claims":[${items.join(',')}]}`;
  return Buffer.from(body.length < bytes ? body + ' '.repeat(bytes - body.length) : body);
}

it(`${BATCHES} concurrent 16 MiB batch bodies: 200/413/429/503 only, bounded memory, still serving`, async () => {
  const under = batchBody(16 * MIB - 1024);
  const over = Buffer.concat([under, Buffer.alloc(2048, 0x20)]);
  const before = memory();
  const statuses = await Promise.all(
    Array.from({ length: BATCHES }, async (_, i) => {
      const res = await fetch(`${server.url}/v1/claims/batch`, {
        method: 'POST',
        headers: { authorization: `Bearer ${worker}`, 'content-type': 'application/json' },
        body: i % 2 === 0 ? under : over,
      });
      const body = (await res.json()) as { results?: { status: number }[] };
      if (res.status === 200) expect(new Set(body.results!.map((r) => r.status))).toEqual(new Set([403]));
      return res.status;
    }),
  );
  const after = memory();
  expect(statuses.filter((s) => ![200, 413, 429, 503].includes(s))).toEqual([]);
  expect(statuses).toContain(413);
  expect(server.child.exitCode).toBeNull();
  expect(await claimWorks('after-batches')).toBe(201);
  // 20 × 16 MiB arrive at once. Parsed and decided, one such batch costs ~150–300 MiB; without a
  // bound 20 of them grew the process by ~1.9 GiB (2.8 GiB peak). LEDGER_MAX_CONCURRENT_BATCHES
  // (4) answers the rest 429 before reading their bodies: growth stays under 1 GiB.
  expect(statuses).toContain(429);
  expect(after.peak - before.now).toBeLessThan(1024 * MIB);
  console.log(
    `batch flood: statuses ${JSON.stringify(statuses)}; RSS ${Math.round(before.now / MIB)} MiB before, peak ${Math.round(after.peak / MIB)} MiB`,
  );
}, 180_000);

it(`${SSE_KEYS} keys × 11 idle live subscriptions: the 11th of each key is 429, the rest stay open, claims still served`, async () => {
  const keys = await Promise.all(
    Array.from({ length: SSE_KEYS }, () => issueKey(server.url, adminToken, 'acme', ['auditor'])),
  );
  const open: { req: ClientRequest; res: IncomingMessage }[] = [];
  const subscribe = (token: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/v1/tenants/acme/operations/changes`, {
        headers: { authorization: `Bearer ${token}` },
        agent: false,
      });
      req.on('response', (res) => {
        if (res.statusCode === 200) open.push({ req, res });
        else res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < keys.length; i += 10) {
      const group = keys.slice(i, i + 10);
      statuses.push(
        ...(await Promise.all(group.flatMap((k) => Array.from({ length: 10 }, () => subscribe(k))))),
      );
      statuses.push(...(await Promise.all(group.map((k) => subscribe(k)))));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(SSE_KEYS * 10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(SSE_KEYS);
    expect(await claimWorks('during-subscriptions')).toBe(201);
    expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    console.log(`idle subscriptions: ${open.length} open; RSS ${Math.round(memory().now / MIB)} MiB`);
  } finally {
    for (const { req } of open) req.destroy();
  }
}, 180_000);
