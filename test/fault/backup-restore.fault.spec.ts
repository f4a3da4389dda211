// Backup and restore of the embedded store (docs/production.md "Backups"): a backup is
// taken with `ledger-admin backup` while 8 workers claim and confirm against the server, then
// restored with `ledger-admin restore` into a new data directory. The restored database holds
// every claim and confirm acknowledged before the backup was asked for, each once; a ledger started
// on it serves them and its read model equals the streams. Restoring over a non-empty directory is
// refused without --force.
import { PGlite } from '@electric-sql/pglite';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { withoutEntries } from '../../src/backup/tar-entries.js';
import { buildSources } from '../observability/support/build-sources.js';
import { acknowledged, letItWork, startClaimConfirmLoad, type RunningLoad } from './claim-confirm-load.js';
import {
  awaitCatchUp,
  expectHonestAnswers,
  readModelProblems,
  streamProblems,
  type RunSql,
} from './ledger-invariants.js';
import { issueKey, newAdminToken, spawnServer, stopGently, type ServerProcess } from './spawned-server.js';

const TENANT = 'acme';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `ledger-admin` (the SWC build of src/admin-cli/ledger-admin.ts) and collects its output. */
function ledgerAdmin(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [join(buildSources(), 'src/admin-cli/ledger-admin.js'), ...args], {
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('a backup taken under load, restored into a new data directory', () => {
  const work = mkdtempSync(join(tmpdir(), 'ledger-backup-'));
  const dataDir = join(work, 'data');
  const restored = join(work, 'restored');
  const backupFile = join(work, 'ledger.tar.gz');
  const adminToken = newAdminToken();
  const servers: ServerProcess[] = [];
  let load: RunningLoad | undefined;

  afterAll(async () => {
    await load?.stop();
    for (const server of servers) await stopGently(server, 10_000);
    rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('holds every operation acknowledged before the backup, once; a ledger starts on it', async () => {
    const t0 = Date.now();
    const marks: string[] = [];
    const mark = (what: string) => {
      marks.push(`${what} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      process.stderr.write(`backup-restore: ${marks.at(-1)}\n`);
    };
    const server = await spawnServer({ LEDGER_DATA_DIR: dataDir, LEDGER_ADMIN_TOKEN: adminToken });
    servers.push(server);
    mark('listening');
    const worker = await issueKey(server.url, adminToken, TENANT, ['worker']);
    const auditor = await issueKey(server.url, adminToken, '*', ['auditor']);
    let phase = 'before';
    load = startClaimConfirmLoad({
      url: () => server.url,
      token: worker,
      tenant: TENANT,
      clients: 8,
      phase: () => phase,
      retryPauseMs: 100,
    });
    for (let i = 0; i < 600 && acknowledged(load.answers).claims.length < 60; i++) await sleep(100);
    const beforeBackup = [...load.answers];
    mark('load ran');
    phase = 'during';
    const backup = await ledgerAdmin(['backup', backupFile], {
      LEDGER_URL: server.url,
      LEDGER_TOKEN: adminToken,
    });
    phase = 'after';
    mark('backup written');
    expect(backup).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^backup written to .*ledger\.tar\.gz: \d+ bytes/),
    });
    await letItWork(load.answers, 20);
    const answers = await load.stop();
    load = undefined;
    expectHonestAnswers(answers);
    expect(
      answers.filter((a) => a.phase === 'during' && (a.status === 201 || a.status === 200)).length,
    ).toBeGreaterThan(0);

    mark('load stopped');
    const names: string[] = [];
    await withoutEntries(gunzipSync(readFileSync(backupFile)), (name) => (names.push(name), false));
    expect(names).toContain('/PG_VERSION');
    expect(names).not.toContain('/ledger.pid'); // the running server's lock stays out of the backup

    const first = await ledgerAdmin(['restore', backupFile, restored]);
    expect(first).toMatchObject({ code: 0, out: expect.stringMatching(/^restored \d+ events/) });
    const again = await ledgerAdmin(['restore', backupFile, restored]);
    expect(again).toMatchObject({ code: 1, out: expect.stringMatching(/is not empty .*--force/) });
    expect(await ledgerAdmin(['restore', backupFile, restored, '--force'])).toMatchObject({ code: 0 });
    mark('restored 3 times');

    const db = new PGlite(restored);
    try {
      const sql: RunSql = async <T>(text: string) => (await db.query<T>(text)).rows;
      expect(await streamProblems(sql, TENANT, beforeBackup)).toEqual([]);
    } finally {
      await db.close();
    }
    const { claims } = acknowledged(beforeBackup);
    expect(claims.length).toBeGreaterThanOrEqual(60);

    const onRestored = await spawnServer({ LEDGER_DATA_DIR: restored, LEDGER_ADMIN_TOKEN: adminToken });
    servers.push(onRestored);
    mark('listening on the restored directory');
    await awaitCatchUp(onRestored.url, auditor); // the keys came with the backup
    expect(await readModelProblems(onRestored.url, auditor, TENANT, beforeBackup)).toEqual([]);
    console.log(
      `backup under load: ${claims.length} claims acknowledged before it, all restored; ` +
        `${acknowledged(answers).claims.length} in the whole run; ${backup.out.trim()}; ${marks.join(', ')}`,
    );
  }, 150_000);
});
