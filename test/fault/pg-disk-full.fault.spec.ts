// A full disk under PostgreSQL (docs/production.md "Disk space", PostgreSQL): the
// ledger's database is created in a tablespace on a 48 MiB tmpfs, which a filler file then fills
// while 8 workers claim and confirm and a bulk writer sends large payloads. PostgreSQL answers
// 53100 disk_full ("could not extend file") and keeps serving reads. Checked: writes answer 503
// `store-unavailable` with Retry-After and the reason, `/health/ready` says not ready with it,
// reads are served, `/health/live` answers, the ledger resumes by itself once the filler is gone,
// SIGTERM exits, and every acknowledged claim and confirm is in the database once. The database,
// the tablespace and the mount are removed afterwards: PostgreSQL is left as it was found.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_URL } from '../support/postgres-test-db.js';
import { letItWork, startClaimConfirmLoad } from './claim-confirm-load.js';
import {
  awaitCatchUp,
  expectHonestAnswers,
  readModelProblems,
  streamProblems,
  type RunSql,
} from './ledger-invariants.js';
import { canMount, MIB, mountSmallVolume, type SmallVolume } from './small-volume.js';
import { issueKey, newAdminToken, spawnServer, stopGently, type ServerProcess } from './spawned-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function admin<T>(sql: string, url = ADMIN_URL): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as T[];
  } finally {
    await client.end();
  }
}

async function get(
  url: string,
  token?: string,
): Promise<{ status: number; body: any; retryAfter: string | null }> {
  const res = await fetch(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(20_000),
  });
  return {
    status: res.status,
    body: await res.json().catch(() => null),
    retryAfter: res.headers.get('retry-after'),
  };
}

const describeAsRoot = canMount() ? describe : describe.skip;

describeAsRoot('PostgreSQL with the ledger database on a 48 MiB tablespace (tmpfs) that fills up', () => {
  const suffix = randomBytes(6).toString('hex');
  const tablespace = `ledger_small_${suffix}`;
  const database = `ledger_disk_full_${suffix}`;
  const adminToken = newAdminToken();
  let volume: SmallVolume | undefined;
  let server: ServerProcess | undefined;
  const writers: { stop(): Promise<unknown> }[] = [];
  let databaseUrl: string;

  beforeAll(async () => {
    volume = mountSmallVolume(48);
    const location = join(volume.dir, 'tablespace');
    mkdirSync(location);
    execFileSync('chown', ['postgres:postgres', location]);
    await admin(`create tablespace ${tablespace} location '${location}'`);
    await admin(`create database ${database} tablespace ${tablespace}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }, 60_000);
  afterAll(async () => {
    for (const writer of writers) await writer.stop();
    if (server) await stopGently(server, 10_000);
    await admin(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await admin(`drop tablespace if exists ${tablespace}`).catch(() => undefined);
    volume?.unmount();
  }, 60_000);

  it('writes 503 with the reason, reads served, not ready; resumes by itself once space returns', async () => {
    server = await spawnServer({
      LEDGER_STORE: 'postgres',
      DATABASE_URL: databaseUrl,
      LEDGER_POOL_SIZE: '6',
      LEDGER_ADMIN_TOKEN: adminToken,
      LEDGER_DATA_DIR: join(volume!.dir, 'unused'),
    });
    const url = server.url;
    const worker = await issueKey(url, adminToken, 'acme', ['worker']);
    const auditor = await issueKey(url, adminToken, '*', ['auditor']);
    volume!.fillLeaving(2 * MIB);
    let phase = 'filling';
    const load = startClaimConfirmLoad({
      url: () => url,
      token: worker,
      tenant: 'acme',
      clients: 8,
      phase: () => phase,
      retryPauseMs: 200,
    });
    writers.push(load);
    let bulkRunning = true;
    const bulk = (async () => {
      for (let n = 0; bulkRunning; n++) {
        const res = await fetch(`${url}/v1/claims`, {
          method: 'POST',
          headers: { authorization: `Bearer ${worker}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            key: { tenant: 'acme', source: 'bulk', action: 'blob.store', subject: `bulk-${n}` },
            payload: { blob: randomBytes(150_000).toString('base64') },
          }),
        }).catch(() => undefined);
        await res?.text();
        if (res?.status !== 201) await sleep(100);
      }
    })();
    writers.push({ stop: () => ((bulkRunning = false), bulk) });

    let ready = await get(`${url}/health/ready`);
    for (let i = 0; i < 450 && ready.status === 200; i++) {
      await sleep(200);
      ready = await get(`${url}/health/ready`);
    }
    phase = 'full';
    expect(ready).toMatchObject({ status: 503, retryAfter: '1', body: { code: 'store-unavailable' } });
    expect(ready.body.detail).toMatch(
      /^storage: disk full reported by PostgreSQL \d+ s ago \(could not extend file/,
    );
    expect((await get(`${url}/health/live`)).status).toBe(200);
    // Readiness turns on the first failed write, often the bulk writer's large payload; small
    // claims still fit in pages PostgreSQL already has until one needs a new page.
    for (let i = 0; i < 150 && !load.answers.some((a) => a.status === 503); i++) await sleep(200);
    const refused = load.answers.find((a) => a.status === 503);
    expect(refused).toMatchObject({ code: 'store-unavailable', retryAfter: '1' });
    const acknowledged = load.answers.find((a) => a.kind === 'claim' && a.status === 201)!;
    expect((await get(`${url}/v1/operations/${acknowledged.operationId}`, worker)).status).toBe(200);
    expect((await get(`${url}/v1/tenants/acme/operations?limit=5`, auditor)).status).toBe(200);

    bulkRunning = false;
    await bulk;
    volume!.unfill();
    phase = 'freed';
    for (let i = 0; i < 300 && ready.status !== 200; i++) {
      await sleep(200);
      ready = await get(`${url}/health/ready`);
    }
    expect(ready.status).toBe(200);
    await letItWork(load.answers, 40);
    const answers = await load.stop();
    expect(answers.filter((a) => a.phase === 'freed' && a.status === 201).length).toBeGreaterThan(0);
    expectHonestAnswers(answers);
    await awaitCatchUp(url, auditor);
    expect(await readModelProblems(url, auditor, 'acme', answers)).toEqual([]);
    expect(await stopGently(server)).toBe(0);
    server = undefined;
    const sql: RunSql = (text) => admin(text, databaseUrl);
    expect(await streamProblems(sql, 'acme', answers)).toEqual([]);
    console.log(
      `PostgreSQL disk full: ${answers.filter((a) => a.status === 201).length} claims acknowledged, ` +
        `${answers.filter((a) => a.status === 503).length} × 503 while full`,
    );
  }, 150_000);
});
