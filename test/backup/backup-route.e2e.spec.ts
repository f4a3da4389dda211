// POST /v1/admin/backup on an in-process ledger: who may take a backup, what it holds (restored
// with restoreDataDir, the code behind `ledger-admin restore`), and the stores it does not cover.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isProcessFile } from '../../src/backup/data-dir-snapshot.js';
import { AdminCliError, restoreDataDir } from '../../src/admin-cli/restore-data-dir.js';
import { openPglite } from '../../src/event-store/postgres/open-pglite.js';
import { IncompleteRestoreError, RESTORE_MARKER } from '../../src/event-store/postgres/restore-marker.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

const backup = (ledger: TestLedger, token: string) =>
  fetch(`${ledger.url}/v1/admin/backup`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });

describe('POST /v1/admin/backup (embedded store)', () => {
  let ledger: TestLedger;
  const work = mkdtempSync(join(tmpdir(), 'ledger-backup-route-'));

  beforeAll(async () => {
    ledger = await startTestLedger('pglite');
  }, 60_000);
  afterAll(async () => {
    await ledger?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('gives a *-admin a gzipped data directory holding the operations; restore refuses a non-empty target without force', async () => {
    const claim = await ledger.client.claim(
      { tenant: 'acme', source: 's', action: 'a', subject: 'one' },
      { n: 1 },
    );
    expect(claim.status).toBe(201);
    const res = await backup(ledger, ledger.rootToken);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="ledger-backup-.*\.tar\.gz"$/,
    );
    const file = join(work, 'backup.tar.gz');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));

    const restored = await restoreDataDir(file, join(work, 'data'));
    expect(restored.events).toBeGreaterThanOrEqual(1);
    expect(restored.lastPosition).toBe(res.headers.get('ledger-backup-position'));
    // one refused restore, both matchers (each restore reads and gunzips the whole backup first)
    const refused = restoreDataDir(file, join(work, 'data'));
    await expect(refused).rejects.toThrow(AdminCliError);
    await expect(refused).rejects.toThrow(/is not empty/);
    expect(readdirSync(join(work, 'data'))).toContain('PG_VERSION'); // the refusal left it as it was
    // the target is judged before the backup is read: no file needed, nothing decompressed
    await expect(restoreDataDir(join(work, 'no-such-backup.tar.gz'), join(work, 'data'))).rejects.toThrow(
      /is not empty/,
    );
    expect((await restoreDataDir(file, join(work, 'data'), true)).events).toBe(restored.events);
  }, 60_000);

  it('refuses keys without the admin role, and admins bound to one tenant', async () => {
    const worker = await ledger.createKey({ tenant: 'acme', roles: ['worker'] });
    const tenantAdmin = await ledger.createKey({ tenant: 'acme', roles: ['admin'] });
    expect((await backup(ledger, worker.token)).status).toBe(403);
    const refused = await backup(ledger, tenantAdmin.token);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: 'forbidden',
      detail: expect.stringMatching(/all tenants/),
    });
  });

  it('refuses a file that is not a backup', async () => {
    const file = join(work, 'not-a-backup.tar');
    writeFileSync(file, 'hello');
    await expect(restoreDataDir(file, join(work, 'empty'))).rejects.toThrow(/is not a ledger data directory/);
    // a refused restore leaves nothing behind: no new directory to be refused as "not empty" next
    expect(existsSync(join(work, 'empty'))).toBe(false);
  }, 30_000);

  it('with --force and a bad file, leaves the target as it was (the backup is checked before anything is replaced)', async () => {
    const target = join(work, 'kept');
    mkdirSync(target);
    writeFileSync(join(target, 'PG_VERSION'), '18\n');
    writeFileSync(join(target, 'other'), 'data');
    const garbage = join(work, 'garbage.tar.gz');
    writeFileSync(garbage, 'not gzip, not tar');
    await expect(restoreDataDir(garbage, target, true)).rejects.toThrow(/is not a ledger data directory/);
    expect(readdirSync(target).sort()).toEqual(['PG_VERSION', 'other']);
  }, 30_000);

  it('rolls a swap that fails half way back: the target keeps its files and no marker (a breaker emptied it with EACCES and EBUSY)', async () => {
    const target = join(work, 'swap-fails');
    mkdirSync(target);
    for (const f of ['PG_VERSION', 'base', 'global']) writeFileSync(join(target, f), f);
    let renames = 0;
    const failSecond = {
      rename: (from: string, to: string) => {
        if (++renames === 2) throw Object.assign(new Error('EBUSY: resource busy'), { code: 'EBUSY' });
        renameSync(from, to);
      },
    };
    await expect(restoreDataDir(join(work, 'backup.tar.gz'), target, true, failSecond)).rejects.toThrow(
      /left as it was/,
    );
    expect(readdirSync(target).sort()).toEqual(['PG_VERSION', 'base', 'global']);
  }, 30_000);

  it('a restore killed during its swap leaves a marker: the ledger refuses the directory, a restore names it and --force replaces it', async () => {
    const target = join(work, 'killed-swap');
    mkdirSync(target);
    writeFileSync(join(target, RESTORE_MARKER), 'restore by process 1\n');
    mkdirSync(join(target, '.restore-1'));
    writeFileSync(join(target, 'postgresql.conf'), '');
    await expect(openPglite({ dataDir: target, diskReserveBytes: 0 })).rejects.toThrow(
      IncompleteRestoreError,
    );
    await expect(restoreDataDir(join(work, 'backup.tar.gz'), target)).rejects.toThrow(/did not finish/);
    const restored = await restoreDataDir(join(work, 'backup.tar.gz'), target, true);
    expect(restored.events).toBeGreaterThanOrEqual(1);
    expect(readdirSync(target).filter((f) => f.startsWith('.') || f === RESTORE_MARKER)).toEqual([]);
    const opened = await openPglite({ dataDir: target, diskReserveBytes: 0 });
    await opened.close();
  }, 60_000);

  it("leaves a killed restore's staging directory out of backups, with the lock and the first admin key", () => {
    expect(isProcessFile('/.restore-4242/base/5/16384')).toBe(true);
    expect(isProcessFile('/.replaced-4242/PG_VERSION')).toBe(true);
    expect(isProcessFile('/ledger.pid')).toBe(true);
    expect(isProcessFile('/first-admin-key')).toBe(true);
    expect(isProcessFile('/base/5/16384')).toBe(false);
  });

  it('refuses a target that is a file, in words', async () => {
    const target = join(work, 'a-file');
    writeFileSync(target, 'x');
    await expect(restoreDataDir(join(work, 'backup.tar.gz'), target)).rejects.toThrow(/is not a directory/);
  });

  it('names a directory a live process holds as in use, before saying it is not empty', async () => {
    const target = join(work, 'held');
    mkdirSync(target);
    writeFileSync(join(target, 'ledger.pid'), String(process.ppid)); // Jest's parent: alive, not this process
    writeFileSync(join(target, 'PG_VERSION'), '18\n');
    await expect(restoreDataDir(join(work, 'backup.tar.gz'), target)).rejects.toThrow(/in use by process/);
  }, 30_000);
});

describe('POST /v1/admin/backup (PostgreSQL)', () => {
  let ledger: TestLedger;
  beforeAll(async () => {
    ledger = await startTestLedger('postgres');
  }, 60_000);
  afterAll(() => ledger?.close());

  it('answers 409 backup-unsupported, naming pg_dump', async () => {
    const res = await backup(ledger, ledger.rootToken);
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      code: 'backup-unsupported',
      detail: expect.stringMatching(/pg_dump/),
    });
  });
});
