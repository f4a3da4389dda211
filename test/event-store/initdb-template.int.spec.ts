// A new embedded data directory starts from the build's dump of a fresh cluster instead of
// running initdb (issue 11: a first `npm start` after install in under 3 s); a directory that
// holds a cluster never gets it, and without a dump PGlite runs initdb as before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initdbDumpFor } from '../../src/event-store/postgres/initdb-dump.js';
import { openPglite } from '../../src/event-store/postgres/open-pglite.js';
import { pgliteSnapshot } from '../support/pglite-snapshot.js';

let temp: string;
let dumpFile: string;
beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'ledger-initdb-dump-'));
  // The tests' initdb dump stands in for the build's (the same dumpDataDir of a new cluster).
  dumpFile = join(temp, 'dump.tar');
  writeFileSync(dumpFile, Buffer.from(await (await pgliteSnapshot()).arrayBuffer()));
}, 60_000);
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function systemIdentifier(dataDir: string, file: string): Promise<string> {
  const opened = await openPglite({ dataDir, initdbDumpFile: file });
  try {
    const { rows } = await opened.executor.query<{ id: string }>(
      'select system_identifier::text as id from pg_control_system()',
    );
    return rows[0]!.id;
  } finally {
    await opened.close();
  }
}

it('two new directories restored from one dump are that cluster; an existing one keeps its own', async () => {
  const a = join(temp, 'a');
  const b = join(temp, 'b');
  const first = await systemIdentifier(a, dumpFile);
  // initdb would have given each cluster its own random identifier
  expect(await systemIdentifier(b, dumpFile)).toBe(first);
  expect(initdbDumpFor(a, dumpFile)).toBeUndefined(); // a holds a cluster now
  expect(await systemIdentifier(a, dumpFile)).toBe(first);
}, 60_000);

it('gives a new directory the dump only when the file is there', () => {
  const fresh = join(temp, 'fresh');
  expect(initdbDumpFor(fresh, join(temp, 'missing.tar'))).toBeUndefined();
  expect(initdbDumpFor(fresh, dumpFile)).toBeInstanceOf(Blob);
});
