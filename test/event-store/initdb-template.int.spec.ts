// A new embedded data directory starts as a copy of the build's fresh cluster instead of running
// initdb (issue 11: a first `npm start` after install in under 3 s); a directory that holds a
// cluster is never overwritten, and without the template PGlite runs initdb as before.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  initdbTemplateDir,
  seedFromInitdbTemplate,
  writeInitdbTemplate,
} from '../../src/event-store/postgres/initdb-template.js';
import { openPglite } from '../../src/event-store/postgres/open-pglite.js';
import { installLedgerSchemas } from '../../src/ledger-schemas.js';
import { pgliteSnapshot } from '../support/pglite-snapshot.js';

let temp: string;
let template: string;
beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'ledger-initdb-template-'));
  // As the build writes it (src/cli/build-initdb-template.ts), from the tests' initdb dump: no
  // second initdb here.
  template = await writeInitdbTemplate(join(temp, 'template'), {
    from: await pgliteSnapshot(),
    prepare: installLedgerSchemas,
  });
}, 60_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function systemIdentifier(dataDir: string, from: string): Promise<string> {
  const opened = await openPglite({ dataDir, initdbTemplate: from });
  try {
    const { rows } = await opened.executor.query<{ id: string }>(
      'select system_identifier::text as id from pg_control_system()',
    );
    return rows[0]!.id;
  } finally {
    await opened.close();
  }
}

it('two new directories copied from the template are that cluster; an existing one keeps its own', async () => {
  const first = await systemIdentifier(join(temp, 'a'), template);
  // initdb would have given each cluster its own random identifier
  expect(await systemIdentifier(join(temp, 'b'), template)).toBe(first);
  // the ledger's own files are not in the template (the lock is released on close)
  expect(existsSync(join(template, 'ledger.pid'))).toBe(false);
  expect(seedFromInitdbTemplate(join(temp, 'a'), template)).toBe(false); // holds a cluster now
  expect(await systemIdentifier(join(temp, 'a'), template)).toBe(first);
}, 60_000);

it('copies only into a new directory, and only when the template is there', () => {
  expect(seedFromInitdbTemplate(join(temp, 'c'), join(temp, 'missing'))).toBe(false);
  expect(existsSync(join(temp, 'c', 'PG_VERSION'))).toBe(false);
  expect(seedFromInitdbTemplate(join(temp, 'c'), template)).toBe(true);
  expect(existsSync(join(temp, 'c', 'PG_VERSION'))).toBe(true);
});

it('copies again over what a copy cut short left (PG_VERSION is written last)', async () => {
  const cut = join(temp, 'cut');
  mkdirSync(join(cut, 'global'), { recursive: true });
  writeFileSync(join(cut, 'global', 'pg_control'), 'half-written');
  expect(seedFromInitdbTemplate(cut, template)).toBe(true);
  expect(readFileSync(join(cut, 'global', 'pg_control'))).toEqual(
    readFileSync(join(template, 'global', 'pg_control')),
  );
  expect(await systemIdentifier(cut, template)).toBe(await systemIdentifier(join(temp, 'b2'), template));
}, 60_000);

it('holds every ledger schema: a store opened on a copy applies no migration', async () => {
  const opened = await openPglite({ dataDir: join(temp, 'schemas'), initdbTemplate: template });
  try {
    expect(await installLedgerSchemas(opened.executor)).toEqual([]);
  } finally {
    await opened.close();
  }
}, 60_000);

it('is found in the build directory by the compiled modules and by the server bundle alike', () => {
  const at = (from: string) => initdbTemplateDir('9.9.9', from);
  expect(at('/app/dist/src/event-store/postgres')).toBe('/app/dist/pglite-9.9.9-initdb');
  expect(at('/app/dist/server')).toBe('/app/dist/pglite-9.9.9-initdb');
  expect(at('/app/dist/src/cli')).toBe('/app/dist/pglite-9.9.9-initdb');
  // beside the sources: none there
  expect(at('/repo/src/event-store/postgres')).toBe('/repo/src/event-store/postgres/pglite-9.9.9-initdb');
});
