// The Idempotency-Key rules of draft-ietf-httpapi-idempotency-key-header-09 on the same NestJS
// endpoint (bench/http/servers/orders-endpoint.mjs), guarded by our interceptor on the ledger and
// by @node-idempotency/nestjs on Redis — each as two replica processes sharing one store, with a
// restart and a SIGKILL between request and retry. Handler executions are counted across
// processes. Where the two differ, the expectations are the table of docs/protect-your-api.md
// ("Beside @node-idempotency"). @node-idempotency is installed into bench/http/baselines as
// `npm run bench:http` installs it (--legacy-peer-deps: it declares Nest ^9/^10 peers).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { startServer, type ServerProcess } from '../../bench/http/server-process.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

type Guard = 'ledger' | 'node-idempotency';
const SCRIPT = fileURLToPath(new URL('../../bench/http/servers/orders-endpoint.mjs', import.meta.url));
const BASELINES = fileURLToPath(new URL('../../bench/http/baselines/', import.meta.url));

/** Installs bench/http/baselines as the benchmark does, when it is not installed yet. */
async function installBaselines(): Promise<void> {
  if (existsSync(join(BASELINES, 'node_modules/@node-idempotency/nestjs/package.json'))) return;
  await promisify(execFile)('npm', ['install', '--legacy-peer-deps', '--no-audit', '--no-fund'], {
    cwd: BASELINES,
    timeout: 240_000,
  });
}

let ledger: TestLedger;
let dir: string;
const replicas = new Map<Guard, ServerProcess[]>();
const envOf = new Map<Guard, Record<string, string>>();

async function start(guard: Guard, name: string): Promise<ServerProcess> {
  return startServer({
    name,
    script: SCRIPT,
    env: envOf.get(guard)!,
    readyPath: '/health',
    logFile: join(dir, `${name}.log`),
    startTimeoutMs: 60_000,
  });
}

beforeAll(async () => {
  await installBaselines(); // the comparison must run: a failed install fails the file
  dir = await mkdtemp(join(tmpdir(), 'idempotency-key-comparison-'));
  ledger = await startTestLedger('pglite');
  for (const guard of ['ledger', 'node-idempotency'] as const) {
    const countFile = join(dir, `${guard}.count`);
    await writeFile(countFile, '');
    envOf.set(guard, {
      GUARD: guard,
      COUNT_FILE: countFile,
      LEDGER_URL: ledger.url,
      LEDGER_TOKEN: ledger.rootToken,
      TENANT: 'acme',
      LEASE_MS: '2000',
      KEY_PREFIX: `comparison-${randomUUID()}`,
    });
    replicas.set(guard, [await start(guard, `${guard}-a`), await start(guard, `${guard}-b`)]);
  }
}, 300_000);
afterAll(async () => {
  for (const servers of replicas.values()) for (const s of servers) await s.stop(5_000);
  await ledger?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const executions = async (guard: Guard) => (await readFile(envOf.get(guard)!.COUNT_FILE!, 'utf8')).length;
const url = (guard: Guard, replica: 0 | 1) => replicas.get(guard)![replica]!.url;

async function send(guard: Guard, replica: 0 | 1, key: string | null, body: unknown) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (key !== null) headers['idempotency-key'] = key;
  const res = await fetch(`${url(guard, replica)}/orders`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const key = () => `"${randomUUID()}"`;
const order = { sku: 'tea', qty: 1 };

describe.each<Guard>(['ledger', 'node-idempotency'])('%s', (guard) => {
  const ours = guard === 'ledger';

  it('§2.1 Syntax: a bare token as the key — ours 400 problem+json; theirs accepts it', async () => {
    const answer = await send(guard, 0, 'not-a-string', order);
    expect(answer.status).toBe(ours ? 400 : 201);
    if (ours) expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  }, 90_000);

  it('§2.7 Error Scenarios: the key missing where required → 400 (ours problem+json, theirs Nest JSON)', async () => {
    const answer = await send(guard, 0, null, order);
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(
      ours ? /^application\/problem\+json/ : /^application\/json/,
    );
  }, 90_000);

  it('§2.6 Enforcement: 10 identical concurrent requests on 2 replicas run the handler once (both)', async () => {
    const k = key();
    const before = await executions(guard);
    const slow = { ...order, mode: 'slow' };
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(guard, (i % 2) as 0 | 1, k, slow)),
    );
    expect(await executions(guard)).toBe(before + 1);
    expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
    expect(
      answers.filter((a) => a.status === 409).every((a) => Number(a.headers.get('retry-after')) >= 1),
    ).toBe(true);
  }, 90_000);

  it('§2.6 Enforcement: a retry after the app restarted replays the body byte for byte (ours keeps Location, theirs drops it)', async () => {
    const k = key();
    const first = await send(guard, 0, k, order);
    expect(first.status).toBe(201);
    const servers = replicas.get(guard)!;
    await servers[0]!.stop();
    servers[0] = await start(guard, `${guard}-a-restarted`);
    const again = await send(guard, 0, k, order);
    expect([again.status, again.text, again.headers.get('idempotent-replayed')]).toEqual([
      201,
      first.text,
      'true',
    ]);
    expect(again.headers.get('location')).toBe(ours ? first.headers.get('location') : null);
  }, 90_000);

  it('§2.7 Error Scenarios: the key reused with another payload → 422; ours names both fingerprints', async () => {
    const k = key();
    await send(guard, 0, k, order);
    const answer = await send(guard, 1, k, { ...order, qty: 2 });
    expect(answer.status).toBe(422);
    const body = JSON.parse(answer.text);
    expect([typeof body.existingFingerprint, typeof body.incomingFingerprint]).toEqual(
      ours ? ['string', 'string'] : ['undefined', 'undefined'],
    );
  }, 90_000);

  it('§2.6 Enforcement: a 5xx — ours is not recorded and the retry runs again; theirs replays the 500', async () => {
    const k = key();
    const before = await executions(guard);
    const crash = { ...order, mode: 'crash' };
    expect((await send(guard, 0, k, crash)).status).toBe(500);
    const again = await send(guard, 1, k, crash);
    expect(again.status).toBe(500);
    expect(await executions(guard)).toBe(before + (ours ? 2 : 1));
  }, 90_000);

  it('§2.6 Enforcement: a crash after the effect started — ours 409 awaiting-recovery; theirs replays the 500', async () => {
    const k = key();
    const before = await executions(guard);
    const risky = { ...order, mode: 'charge-then-crash' };
    expect((await send(guard, 0, k, risky)).status).toBe(500);
    const again = await send(guard, 1, k, risky);
    expect(again.status).toBe(ours ? 409 : 500);
    if (ours) expect(JSON.parse(again.text)).toMatchObject({ code: 'awaiting-recovery' });
    expect(await executions(guard)).toBe(before + 1);
  }, 90_000);

  it('§2.6 Enforcement: the app killed mid-request — ours runs the retry once the lease ends; theirs answers 409 until its TTL', async () => {
    const k = key();
    const servers = replicas.get(guard)!;
    const before = await executions(guard);
    const hanging = { ...order, hangIn: servers[0]!.pid }; // hangs in replica A's process only
    const hung = send(guard, 0, k, hanging).catch(() => null);
    while ((await executions(guard)) === before) await new Promise((r) => setTimeout(r, 50));
    process.kill(servers[0]!.pid, 'SIGKILL');
    await hung;
    await servers[0]!.stop();
    servers[0] = await start(guard, `${guard}-a-after-kill`);
    expect((await send(guard, 1, k, hanging)).status).toBe(409);
    ledger.clock.advance(3_000); // past LEASE_MS on the ledger's clock (theirs: Redis TTL, 24 h)
    const retry = await send(guard, 1, k, hanging);
    expect(retry.status).toBe(ours ? 201 : 409);
  }, 90_000);
});
