// A reconciliation "gzip bomb" on a small volume (docs/reconciliation.md "Storage bounds"): a few
// KB of gzip holding a million identical rows, uploaded while another tenant claims and confirms.
// Its spilled rows, items and WAL once went through the embedded store's write reserve between two
// free-space readings, and every tenant got 503. Checked: an auditor key cannot upload at all;
// the operator's upload is refused (503 naming the free space) or its run is failed with the
// reason, before the volume gets near the reserve; a 200 000-row bomb received whole while there
// was room is stopped in its phases once the volume is 20 MiB above the floor; every claim and
// confirm of the other tenant is answered (no 503), readiness stays 200; and the sweep removes
// the stopped runs' rows. Then,
// with the volume between the reserve and what a restart needs, readiness says `degraded` and
// /metrics has the two figures the alert compares.
import { PGlite } from '@electric-sql/pglite';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startClaimConfirmLoad } from './claim-confirm-load.js';
import { canMount, MIB, mountSmallVolume, type SmallVolume } from './small-volume.js';
import { issueKey, newAdminToken, spawnServer, stopGently, type ServerProcess } from './spawned-server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** What reconciliation work leaves free by default: a restart's 40 MiB + the 64 MiB headroom. */
const FLOOR_MIB = 40 + 64;
const ROWS = 1_000_000;

/** `rows` identical CSV rows, gzipped (a few KB). */
function bomb(rows = ROWS): Buffer {
  const row = 'INV-1,order:1\n';
  return gzipSync('id,reference\n' + row.repeat(rows), { level: 9 });
}

async function upload(url: string, token: string, body: Buffer, query = '', method = 'POST') {
  const res = await fetch(`${url}/v1/tenants/bomber/reconciliations${query}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv', 'content-encoding': 'gzip' },
    body,
    signal: AbortSignal.timeout(120_000),
  });
  return { status: res.status, body: (await res.json()) as any, retryAfter: res.headers.get('retry-after') };
}

async function get(url: string, token: string, path: string) {
  const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

/** Polls run `id` until it is completed or failed (≤ 120 s). */
async function finished(url: string, token: string, id: string) {
  let run: any;
  for (let i = 0; i < 600; i++) {
    run = (await get(url, token, `/v1/tenants/bomber/reconciliations/${id}`)).body;
    if (run.status === 'failed' || run.status === 'completed') break;
    await sleep(200);
  }
  return run;
}

const describeAsRoot = canMount() ? describe : describe.skip;

describeAsRoot('a gzip bomb uploaded for reconciliation on a 320 MiB volume (tmpfs)', () => {
  let volume: SmallVolume;
  let server: ServerProcess | undefined;
  const stops: { stop(): Promise<unknown> }[] = [];

  beforeAll(() => {
    volume = mountSmallVolume(320);
  });
  afterAll(async () => {
    for (const s of stops) await s.stop();
    if (server) await stopGently(server, 10_000);
    volume?.unmount();
  }, 60_000);

  it('is refused or stopped above the reserve while other tenants keep claiming; its rows are swept; then readiness warns of a failing restart', async () => {
    const dataDir = join(volume.dir, 'data');
    const adminToken = newAdminToken();
    server = await spawnServer({
      LEDGER_STORE: 'pglite',
      LEDGER_DATA_DIR: dataDir,
      LEDGER_ADMIN_TOKEN: adminToken,
      LEDGER_RECONCILIATION_POLL_MS: '200',
    });
    const { url } = server;
    const operator = await issueKey(url, adminToken, 'bomber', ['operator']);
    const auditor = await issueKey(url, adminToken, 'bomber', ['auditor']);
    const worker = await issueKey(url, adminToken, 'acme', ['worker']);
    const scraper = await issueKey(url, adminToken, '*', ['auditor']);
    const payload = bomb();
    expect(payload.length).toBeLessThan(32 * 1024);

    const readOnly = await upload(url, auditor, payload);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.detail).toMatch(/operator/);

    volume.fillLeaving((FLOOR_MIB + 60) * MIB);
    let phase = 'bomb';
    const load = startClaimConfirmLoad({
      url: () => url,
      token: worker,
      tenant: 'acme',
      clients: 2,
      phase: () => phase,
      prefix: 'B',
    });
    stops.push(load);

    const answer = await upload(url, operator, payload);
    let outcome: string;
    let runId: string;
    if (answer.status === 503) {
      // refused while receiving: the run is failed with the reason, nothing of it is kept
      expect(answer.retryAfter).not.toBeNull();
      expect(answer.body).toMatchObject({ code: 'store-unavailable' });
      expect(answer.body.detail).toMatch(/the upload was stopped: storage: \d+ MiB free .* needs 104 MiB/);
      const runs = (await get(url, operator, '/v1/tenants/bomber/reconciliations')).body.items;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 'failed' });
      runId = runs[0].id;
      outcome = 'upload refused (503) while receiving';
    } else {
      expect(answer.status).toBe(202);
      runId = answer.body.id;
      const run = await finished(url, operator, runId);
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/^the comparison was stopped before its next chunk: storage: \d+ MiB free/);
      outcome = `run stopped in phase ${run.phase}`;
    }
    // the work stopped above the floor's worth of chunk: far from the reserve and a restart's need
    expect(volume.free()).toBeGreaterThan(64 * MIB);

    // a smaller bomb that is received whole while there is room, then compared on a volume with
    // 20 MiB above the floor: the phases' chunks stop the run, with the reason
    phase = 'phases';
    volume.unfill();
    const waiting = await upload(url, operator, bomb(200_000), '?awaitSource=true');
    expect(waiting).toMatchObject({ status: 202, body: { status: 'awaiting_source' } });
    volume.fillLeaving((FLOOR_MIB + 20) * MIB);
    const source = await upload(
      url,
      operator,
      gzipSync('source,action,subject\nshop,invoice.create,order:1\n'),
      `/${waiting.body.id}/source`,
      'PUT',
    );
    expect(source).toMatchObject({ status: 202, body: { status: 'queued' } });
    const stopped = await finished(url, operator, waiting.body.id);
    expect(stopped.status).toBe('failed');
    expect(stopped.error).toMatch(
      /^the comparison was stopped before its next chunk: storage: \d+ MiB free .* needs 104 MiB/,
    );
    expect(volume.free()).toBeGreaterThan(64 * MIB);

    phase = 'after';
    const before = load.answers.length;
    for (let i = 0; i < 100 && load.answers.length < before + 20; i++) await sleep(100);
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
    const answers = await load.stop();
    const failed = answers.filter(
      (a) => a.status === 503 || a.status === 'hang' || a.status === 'network-error',
    );
    expect(failed).toEqual([]);
    expect(answers.filter((a) => a.phase === 'bomb' && a.status === 201).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.phase === 'phases' && a.status === 201).length).toBeGreaterThan(0);
    expect(answers.filter((a) => a.phase === 'after' && a.status === 201).length).toBeGreaterThan(0);

    // the sweep removes a failed run's rows 30 s after it finished
    volume.unfill();
    await sleep(40_000);

    // between the reserve and what a restart needs: ready, but degraded, and /metrics says why
    volume.fillLeaving(30 * MIB);
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(200);
    const health = (await ready.json()) as { status: string; warnings: string[] };
    expect(health.status).toBe('degraded');
    expect(health.warnings[0]).toMatch(/^storage: (29|30) MiB free, a restart needs 40 MiB/);
    const metrics = await (
      await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${scraper}` } })
    ).text();
    const gauge = (name: string) =>
      Number(new RegExp(`^${name}\\{store="pglite"\\} (\\S+)$`, 'm').exec(metrics)?.[1]);
    expect(gauge('ledger_storage_free_bytes')).toBeLessThan(gauge('ledger_storage_restart_needed_bytes'));
    expect(gauge('ledger_storage_restart_needed_bytes')).toBe(40 * MIB);
    volume.unfill();

    expect(await stopGently(server)).toBe(0);
    server = undefined;
    const db = new PGlite(dataDir);
    try {
      const count = async (table: string, id: string) =>
        Number(
          (
            await db.query<{ n: string }>(`select count(*)::text as n from ${table} where recon_id = $1`, [
              id,
            ])
          ).rows[0]!.n,
        );
      for (const id of [runId, waiting.body.id]) {
        expect(await count('ledger_recon_destination_rows', id)).toBe(0);
        expect(await count('ledger_recon_items', id)).toBe(0);
      }
      const { rows } = await db.query<{ removed: boolean }>(
        'select rows_removed_at is not null as removed from ledger_reconciliations where id = any($1::uuid[])',
        [[runId, waiting.body.id]],
      );
      expect(rows.map((r) => r.removed)).toEqual([true, true]);
    } finally {
      await db.close();
    }
    console.log(
      `gzip bomb (${payload.length} bytes, ${ROWS} rows): ${outcome}; ` +
        `a 200 000-row run stopped in phase ${stopped.phase}; ` +
        `${answers.filter((a) => a.status === 201).length} claims acknowledged meanwhile, none refused`,
    );
  }, 180_000);
});
