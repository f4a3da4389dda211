// docs/decisions.md "A new embedded data directory starts as a copy of a fresh cluster the build
// ships" instead of running initdb; a directory that holds a cluster is never overwritten, and without the template PGlite runs initdb as before.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initdbTemplateDir, seedFromInitdbTemplate } from '../../src/event-store/postgres/initdb-template.js';
import { writeInitdbTemplate } from '../../src/event-store/postgres/write-initdb-template.js';
import { DataDirInUseError } from '../../src/event-store/postgres/data-dir-lock.js';
import { openAhead, takeOpenedAhead } from '../../src/event-store/postgres/early-open.js';
import { openPglite, type OpenedPglite } from '../../src/event-store/postgres/open-pglite.js';
import type { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';
import { IncompleteRestoreError, RESTORE_MARKER } from '../../src/event-store/postgres/restore-marker.js';
import { installLedgerSchemas } from '../../src/ledger-schemas.js';
import { pgliteSnapshot } from '../support/pglite-snapshot.js';

let temp: string;
let template: string;
beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'ledger-initdb-template-'));
  // As the build writes it (src/admin-cli/build-initdb-template.ts), from the tests' initdb dump: no
  // second initdb here.
  template = await writeInitdbTemplate(join(temp, 'template'), {
    from: await pgliteSnapshot(),
    prepare: installLedgerSchemas,
  });
}, 60_000);

// A copy of the template opened once, for the tests that only read it: each start of PGlite on a
// directory costs ≈ 1.5 CPU-s.
let copy: Promise<OpenedPglite> | undefined;
const openedCopy = () => (copy ??= openPglite({ dataDir: join(temp, 'b'), initdbTemplate: template }));

afterAll(async () => {
  await (await copy?.catch(() => undefined))?.close();
  rmSync(temp, { recursive: true, force: true });
});

async function identifierOf(executor: PgliteExecutor): Promise<string> {
  const { rows } = await executor.query<{ id: string }>(
    'select system_identifier::text as id from pg_control_system()',
  );
  return rows[0]!.id;
}

async function systemIdentifier(dataDir: string, from: string): Promise<string> {
  const opened = await openPglite({ dataDir, initdbTemplate: from });
  try {
    return await identifierOf(opened.executor);
  } finally {
    await opened.close();
  }
}

it('two new directories copied from the template are that cluster; an existing one keeps its own', async () => {
  const first = await systemIdentifier(join(temp, 'a'), template);
  // initdb would have given each cluster its own random identifier
  expect(await identifierOf((await openedCopy()).executor)).toBe(first);
  // the ledger's own files are not in the template (the lock is released on close)
  expect(existsSync(join(template, 'ledger.pid'))).toBe(false);
  expect(await seedFromInitdbTemplate(join(temp, 'a'), template)).toBe(false); // holds a cluster now
  expect(await systemIdentifier(join(temp, 'a'), template)).toBe(first);
}, 60_000);

it('copies only into a new directory, and only when the template is there', async () => {
  expect(await seedFromInitdbTemplate(join(temp, 'c'), join(temp, 'missing'))).toBe(false);
  expect(existsSync(join(temp, 'c', 'PG_VERSION'))).toBe(false);
  expect(await seedFromInitdbTemplate(join(temp, 'c'), template)).toBe(true);
  expect(existsSync(join(temp, 'c', 'PG_VERSION'))).toBe(true);
});

it('copies again over what a copy cut short left (PG_VERSION is written last)', async () => {
  const cut = join(temp, 'cut');
  mkdirSync(join(cut, 'global'), { recursive: true });
  writeFileSync(join(cut, 'global', 'pg_control'), 'half-written');
  expect(await seedFromInitdbTemplate(cut, template)).toBe(true);
  expect(readFileSync(join(cut, 'global', 'pg_control'))).toEqual(
    readFileSync(join(template, 'global', 'pg_control')),
  );
  expect(await systemIdentifier(cut, template)).toBe(await identifierOf((await openedCopy()).executor));
}, 60_000);

it('holds every ledger schema: a store opened on a copy applies no migration', async () => {
  expect(await installLedgerSchemas((await openedCopy()).executor)).toEqual([]);
}, 60_000);

it('is found in the build directory by the compiled modules and by the server bundle alike', () => {
  const at = (from: string) => initdbTemplateDir('9.9.9', from);
  expect(at('/app/dist/src/event-store/postgres')).toBe('/app/dist/pglite-9.9.9-initdb');
  expect(at('/app/dist/server')).toBe('/app/dist/pglite-9.9.9-initdb');
  expect(at('/app/dist/src/admin-cli')).toBe('/app/dist/pglite-9.9.9-initdb');
  // beside the sources: none there
  expect(at('/repo/src/event-store/postgres')).toBe('/repo/src/event-store/postgres/pglite-9.9.9-initdb');
});

describe('seeded ahead (main.ts starts the copy before the modules load)', () => {
  it('openPglite takes over the lock and the copy: one cluster, the lock released on close', async () => {
    const dir = join(temp, 'ahead');
    openAhead({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template });
    expect(readFileSync(join(dir, 'ledger.pid'), 'utf8')).toBe(String(process.pid)); // locked at once
    const opened = await openPglite({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template });
    try {
      expect(await installLedgerSchemas(opened.executor)).toEqual([]); // the template's cluster
    } finally {
      await opened.close();
    }
    expect(existsSync(join(dir, 'ledger.pid'))).toBe(false);
    expect(takeOpenedAhead(dir)).toBeUndefined(); // handed over once
  }, 60_000);

  it('opens an existing directory ahead too: locked at once, openPglite takes the running instance over', async () => {
    const dir = join(temp, 'existing');
    const earlier = await openPglite({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template });
    await earlier.executor.exec('create table kept (v int); insert into kept values (7)');
    await earlier.close();
    openAhead({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template });
    expect(readFileSync(join(dir, 'ledger.pid'), 'utf8')).toBe(String(process.pid)); // locked at once
    const opened = await openPglite({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template });
    try {
      expect((await opened.executor.query('select v from kept')).rows).toEqual([{ v: 7 }]);
    } finally {
      await opened.close();
    }
    expect(existsSync(join(dir, 'ledger.pid'))).toBe(false);
    expect(takeOpenedAhead(dir)).toBeUndefined(); // handed over once
  }, 60_000);

  it('leaves a directory another live process holds alone, and openPglite refuses it', async () => {
    const dir = join(temp, 'held');
    mkdirSync(dir);
    writeFileSync(join(dir, 'ledger.pid'), '1'); // init: alive
    openAhead({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template });
    expect(takeOpenedAhead(dir)).toBeUndefined();
    expect(existsSync(join(dir, 'base'))).toBe(false); // nothing copied
    await expect(openPglite({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template })).rejects.toThrow(
      DataDirInUseError,
    );
  });

  it('copies nothing into a directory a restore was cut short in, and lets openPglite say so', async () => {
    const dir = join(temp, 'restoring');
    mkdirSync(dir);
    writeFileSync(join(dir, RESTORE_MARKER), '');
    openAhead({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template });
    expect(takeOpenedAhead(dir)).toBeUndefined();
    expect(existsSync(join(dir, 'ledger.pid'))).toBe(false); // its lock released
    await expect(openPglite({ dataDir: dir, diskReserveBytes: 0, initdbTemplate: template })).rejects.toThrow(
      IncompleteRestoreError,
    );
    expect(existsSync(join(dir, 'base'))).toBe(false);
  });
});
