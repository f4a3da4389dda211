// A full disk under the embedded store (docs/production.md "Disk space"; the failure it guards
// against: once the disk was full every request hung, the process spun, freeing space did not help, SIGTERM did not stop
// it, and a restart with 16 MB free failed). The PGlite data directory lives on a 100 MiB tmpfs;
// a filler file takes its space while 8 workers claim and confirm and a bulk writer sends large
// payloads. Checked: writes answer 503 `store-unavailable` (Retry-After) instead of hanging,
// `/health/ready` says why, `/health/live` answers, reads are served, the service resumes by itself
// once the filler is gone, SIGTERM exits, a start on a nearly full volume is refused in one line
// naming the space needed, and every acknowledged claim and confirm is in the reopened database.
import { PGlite } from '@electric-sql/pglite';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { letItWork, startClaimConfirmLoad, type LoadAnswer } from './claim-confirm-load.js';
import {
  awaitCatchUp,
  expectHonestAnswers,
  readModelProblems,
  streamProblems,
  type RunSql,
} from './ledger-invariants.js';
import { canMount, MIB, mountSmallVolume, type SmallVolume } from './small-volume.js';
import { issueKey, newAdminToken, spawnServer, stopGently, type ServerProcess } from './spawned-server.js';

const RESERVE_MIB = 24; // the default LEDGER_DISK_RESERVE_MIB
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Answer {
  status: number;
  body: any;
  retryAfter: string | null;
}

async function call(url: string, token?: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, {
    ...init,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
    },
    signal: AbortSignal.timeout(20_000),
  });
  return {
    status: res.status,
    body: await res.json().catch(() => null),
    retryAfter: res.headers.get('retry-after'),
  };
}

/** Polls `/health/ready` until `wanted` holds for its answer (≤ `timeoutMs`). */
async function readyUntil(url: string, wanted: (a: Answer) => boolean, timeoutMs = 90_000): Promise<Answer> {
  const deadline = Date.now() + timeoutMs;
  let last: Answer | undefined;
  while (Date.now() < deadline) {
    last = await call(`${url}/health/ready`).catch(() => undefined);
    if (last && wanted(last)) return last;
    await sleep(200);
  }
  throw new Error(`readiness never turned as expected; last answer ${JSON.stringify(last)}`);
}

/** Claims of ~200 KB random payloads (source `bulk`, outside the load's accounting) until stopped. */
function startBulkWriter(url: string, token: string, tenant: string): { stop(): Promise<void> } {
  let running = true;
  let n = 0;
  const loop = (async () => {
    while (running) {
      const subject = `bulk-${n++}`;
      const answer = await call(`${url}/v1/claims`, token, {
        method: 'POST',
        body: JSON.stringify({
          key: { tenant, source: 'bulk', action: 'blob.store', subject },
          payload: { blob: randomBytes(150_000).toString('base64') },
        }),
      }).catch(() => undefined);
      if (answer?.status !== 201) await sleep(100);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

const describeAsRoot = canMount() ? describe : describe.skip;

describeAsRoot('the embedded store on a 100 MiB volume (tmpfs) that fills up', () => {
  let volume: SmallVolume;
  let dataDir: string;
  const adminToken = newAdminToken();
  const servers: ServerProcess[] = [];
  /** Loads and bulk writers to stop in afterAll (a failed test leaves them running). */
  const writers: { stop(): Promise<unknown> }[] = [];
  const envWith = (extra: Record<string, string> = {}) => ({
    LEDGER_STORE: 'pglite',
    LEDGER_DATA_DIR: dataDir,
    LEDGER_ADMIN_TOKEN: adminToken,
    ...extra,
  });
  const start = async (extra?: Record<string, string>) => {
    const server = await spawnServer(envWith(extra));
    servers.push(server);
    return server;
  };
  /** The streams of the reopened data directory against what `answers` acknowledged. */
  const problemsOnDisk = async (tenant: string, answers: readonly LoadAnswer[]) => {
    const db = new PGlite(dataDir);
    try {
      const sql: RunSql = async <T>(text: string) => (await db.query<T>(text)).rows;
      return await streamProblems(sql, tenant, answers);
    } finally {
      await db.close();
    }
  };

  beforeAll(() => {
    volume = mountSmallVolume(100);
    dataDir = join(volume.dir, 'data');
  });
  afterAll(async () => {
    for (const writer of writers) await writer.stop();
    for (const server of servers) await stopGently(server, 10_000);
    volume?.unmount();
  }, 60_000);

  it('refuses to start a new data directory on a nearly full volume, in one line naming the space needed', async () => {
    volume.fillLeaving(50 * MIB);
    try {
      const failure = await start().then(
        async (server) => `started (exit ${await stopGently(server)})`,
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/exited \(1\) before listening/);
      const errors = failure.split('\n').filter((line) => line.includes('"level":"error"'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        /not enough free space for the embedded store in .*: 50 MiB free, 64 MiB needed/,
      );
      expect(failure).not.toMatch(/PGlite failed|\n\s+at /);
    } finally {
      volume.unfill();
    }
  }, 60_000);

  it('below the reserve: writes 503 at once, reads served, not ready with the reason; resumes by itself once space returns', async () => {
    const server = await start();
    const worker = await issueKey(server.url, adminToken, 'acme', ['worker']);
    const auditor = await issueKey(server.url, adminToken, '*', ['auditor']);
    volume.fillLeaving((RESERVE_MIB + 3) * MIB);
    let phase = 'filling';
    const load = startClaimConfirmLoad({
      url: () => server.url,
      token: worker,
      tenant: 'acme',
      clients: 8,
      phase: () => phase,
      retryPauseMs: 200,
      prefix: 'R',
    });
    writers.push(load);
    const bulk = startBulkWriter(server.url, worker, 'acme');
    writers.push(bulk);
    const notReady = await readyUntil(server.url, (a) => a.status === 503);
    phase = 'full';
    await bulk.stop();
    expect(notReady.retryAfter).toBe('1');
    expect(notReady.body).toMatchObject({ code: 'store-unavailable' });
    expect(notReady.body.detail).toMatch(
      new RegExp(`^storage: disk full, \\d+ MiB free, need ${RESERVE_MIB}`),
    );
    expect((await call(`${server.url}/health/live`)).status).toBe(200);

    const claim = await call(`${server.url}/v1/claims`, worker, {
      method: 'POST',
      body: JSON.stringify({
        key: { tenant: 'acme', source: 'probe', action: 'a', subject: 'full' },
        payload: {},
      }),
    });
    expect(claim).toMatchObject({ status: 503, retryAfter: '1', body: { code: 'store-unavailable' } });
    expect(claim.body.detail).toMatch(/storage: disk full/);
    const acknowledged = load.answers.find((a) => a.kind === 'claim' && a.status === 201)!;
    expect((await call(`${server.url}/v1/operations/${acknowledged.operationId}`, worker)).status).toBe(200);
    expect((await call(`${server.url}/v1/tenants/acme/operations?limit=5`, auditor)).status).toBe(200);
    await sleep(1500); // the workers keep trying meanwhile: every write answers 503
    expect(load.answers.filter((a) => a.phase === 'full' && a.status === 201)).toEqual([]);

    volume.unfill();
    phase = 'freed';
    await readyUntil(server.url, (a) => a.status === 200);
    await letItWork(load.answers, 40);
    const answers = await load.stop();
    expect(answers.filter((a) => a.phase === 'freed' && a.status === 201).length).toBeGreaterThan(0);
    expectHonestAnswers(answers);
    await awaitCatchUp(server.url, auditor);
    expect(await readModelProblems(server.url, auditor, 'acme', answers)).toEqual([]);
    expect(await stopGently(server)).toBe(0);
    expect(await problemsOnDisk('acme', answers)).toEqual([]);
    console.log(
      `disk full below the reserve: ${answers.filter((a) => a.status === 201).length} claims acknowledged, ` +
        `${answers.filter((a) => a.status === 503).length} × 503 while full`,
    );
  }, 180_000);

  it('a storage failure inside PGlite (no reserve): never called again, reopened once space returns; SIGTERM exits while it is stopped', async () => {
    const server = await start({ LEDGER_DISK_RESERVE_MIB: '0' });
    const worker = await issueKey(server.url, adminToken, 'globex', ['worker']);
    let phase = 'filling';
    const load = startClaimConfirmLoad({
      url: () => server.url,
      token: worker,
      tenant: 'globex',
      clients: 8,
      phase: () => phase,
      retryPauseMs: 200,
      prefix: 'S',
    });
    writers.push(load);
    const fillUntilStopped = async () => {
      volume.fillLeaving(2 * MIB);
      phase = 'filling';
      const bulk = startBulkWriter(server.url, worker, 'globex');
      writers.push(bulk);
      const stopped = await readyUntil(server.url, (a) => a.status === 503);
      phase = 'stopped';
      await bulk.stop();
      return stopped;
    };

    const stopped = await fillUntilStopped();
    expect(stopped.body.detail).toMatch(
      /^storage: disk full, the embedded database stopped .*reopening when 16 MiB are free/,
    );
    expect((await call(`${server.url}/health/live`)).status).toBe(200);
    volume.unfill();
    phase = 'freed';
    await readyUntil(server.url, (a) => a.status === 200);
    await letItWork(load.answers, 20);
    expect(load.answers.filter((a) => a.phase === 'freed' && a.status === 201).length).toBeGreaterThan(0);

    await fillUntilStopped();
    expect((await call(`${server.url}/health/live`)).status).toBe(200);
    expect(await stopGently(server)).toBe(0); // SIGTERM with the disk full and the database stopped
    const answers = await load.stop();
    expectHonestAnswers(answers);
    volume.unfill();
    expect(await problemsOnDisk('globex', answers)).toEqual([]);
    console.log(
      `storage failure inside PGlite: ${answers.filter((a) => a.status === 201).length} claims acknowledged, ` +
        `${answers.filter((a) => a.status === 503).length} × 503 while stopped`,
    );
  }, 180_000);

  it('refuses to reopen the data directory with too little room for crash recovery, naming 40 MiB', async () => {
    volume.fillLeaving(30 * MIB);
    try {
      const failure = await start().then(
        async (server) => `started (exit ${await stopGently(server)})`,
        (error: Error) => error.message,
      );
      expect(failure).toMatch(/: 30 MiB free, 40 MiB needed to open the data directory/);
    } finally {
      volume.unfill();
    }
  }, 60_000);
});
