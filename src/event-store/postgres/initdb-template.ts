import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * The installed PGlite's version (its package.json, found from its entry point: the package
 * exports no `./package.json`).
 */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const marker = `${sep}@electric-sql${sep}pglite${sep}`;
  const root = entry.slice(0, entry.lastIndexOf(marker) + marker.length);
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * Where the build keeps the dump of a freshly initialised, empty cluster for PGlite `version`:
 * next to this module (`dist/src/event-store/postgres/` in the build; absent beside the sources).
 */
export function initdbDumpFile(version: string = pgliteVersion()): string {
  return join(dirname(fileURLToPath(import.meta.url)), `pglite-${version}-initdb.tar`);
}

/**
 * Writes {@link initdbDumpFile}: PGlite's `dumpDataDir('none')` of a new in-memory cluster, which
 * is exactly what initdb leaves — no ledger schema (migrations still run on every new database).
 * Run once by `npm run build` (when the file is missing), so that a first start restores it
 * (0.4–0.8 s) instead of running initdb in WebAssembly (2.5–4.5 s of CPU). Uncompressed (≈ 39 MB):
 * gzip (4.5 MB) took 0.2–0.35 s longer to restore. Written to a temporary name and renamed into place.
 * @returns the file's path. @throws the PGlite or file-system error.
 */
export async function writeInitdbDump(file: string = initdbDumpFile()): Promise<string> {
  const db = new PGlite();
  let dump: Blob;
  try {
    await db.waitReady;
    dump = await db.dumpDataDir('none');
  } finally {
    await db.close();
  }
  await mkdir(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
  return file;
}

/**
 * The dump a NEW data directory (no `PG_VERSION` yet) should start from: {@link initdbDumpFile}
 * when the build wrote one for the installed PGlite, else undefined (PGlite runs initdb itself).
 * A directory that already holds a cluster is never given one.
 */
export function initdbDumpFor(dataDir: string, file: string = initdbDumpFile()): Blob | undefined {
  if (existsSync(join(dataDir, 'PG_VERSION')) || !existsSync(file)) return undefined;
  return new Blob([readFileSync(file)]);
}
