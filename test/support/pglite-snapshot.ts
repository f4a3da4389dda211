import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pgliteStartParams } from '../../src/event-store/postgres/pglite-start-params.js';

/**
 * A freshly initialised, EMPTY PGlite cluster as a data-directory dump (PGlite `dumpDataDir`,
 * uncompressed tar), for `new PGlite({ loadDataDir })`. Every in-memory PGlite of the tests runs
 * initdb first (2–3 CPU-s in WebAssembly); restoring this dump instead costs about 0.5 CPU-s. The
 * dump holds only what initdb makes — no ledger schema: stores and apps still apply every migration
 * themselves, so migrations stay under test.
 *
 * Built once per PGlite version and kept in `node_modules/.cache/operation-ledger-tests/` (worker
 * processes racing to build it each write a temporary file and rename it into place, so readers
 * never see a partial file). Delete that directory to rebuild it. Memoised per test file.
 */
export function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= loadOrBuild().catch((error: unknown) => {
    snapshot = undefined;
    throw error;
  });
  return snapshot;
}

/** A new in-memory PGlite restored from {@link pgliteSnapshot}, ready for queries. */
export async function newPglite(): Promise<PGlite> {
  const db = new PGlite({ loadDataDir: await pgliteSnapshot(), startParams: pgliteStartParams() });
  await db.waitReady;
  return db;
}

/**
 * Makes `dataDir` (created if missing; expected empty) a freshly initialised PGlite cluster, as
 * the first start of a server would leave it before applying migrations: {@link pgliteSnapshot}
 * unpacked with the system's tar. For tests that start the server as a process on a data
 * directory of their own; it saves that process initdb (2–4 CPU-s).
 */
export async function seedPgliteDataDir(dataDir: string): Promise<void> {
  await pgliteSnapshot();
  await mkdir(dataDir, { recursive: true });
  execFileSync('tar', ['-xf', await snapshotFile(), '-C', dataDir]);
}

let snapshot: Promise<Blob> | undefined;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the dump of this PGlite version is kept. */
async function snapshotFile(): Promise<string> {
  const manifest = await readFile(
    join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
    'utf8',
  );
  const { version } = JSON.parse(manifest) as { version: string };
  return join(ROOT, 'node_modules', '.cache', 'operation-ledger-tests', `pglite-${version}-initdb.tar`);
}

async function loadOrBuild(): Promise<Blob> {
  const file = await snapshotFile();
  const cached = await readFile(file).catch(() => undefined);
  if (cached) return new Blob([cached]);
  const db = new PGlite();
  let dump: Blob;
  try {
    await db.waitReady;
    dump = await db.dumpDataDir('none');
  } finally {
    await db.close();
  }
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.${Date.now()}`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
  return dump;
}
