import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { PgliteExecutor } from './pglite-executor.js';

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
 * Where the build keeps a freshly initialised cluster for PGlite `version`: `pglite-<version>-initdb`
 * in the build's `dist/` directory — the nearest ancestor of `from` (this module's directory by
 * default) named `dist`, so that the compiled modules (`dist/src/…`) and the server bundle
 * (`dist/server/`) find the same one. Beside the sources (no `dist` ancestor) it is `from` itself,
 * where there is none.
 */
export function initdbTemplateDir(
  version: string = pgliteVersion(),
  from: string = dirname(fileURLToPath(import.meta.url)),
): string {
  let dist = from;
  while (basename(dist) !== 'dist' && dirname(dist) !== dist) dist = dirname(dist);
  return join(basename(dist) === 'dist' ? dist : from, `pglite-${version}-initdb`);
}

/** Options of {@link writeInitdbTemplate}. */
export interface WriteInitdbTemplateOptions {
  /** Run on the new cluster before it is closed (the build installs every ledger schema). */
  readonly prepare?: (executor: PgliteExecutor) => Promise<unknown>;
  /** A PGlite dump to start from instead of running initdb (tests). */
  readonly from?: Blob | File;
}

/**
 * Writes {@link initdbTemplateDir}: PGlite's initdb into a new directory, then `prepare` (the
 * build installs every schema of the ledger: see src/cli/build-initdb-template.ts), closed
 * cleanly. Run once by `npm run build` (when the directory is missing), so that a first start
 * copies it (≈ 0.15 s) instead of running initdb in WebAssembly (2.5–4.5 s of CPU) and then
 * every migration (≈ 0.35 s). Built under a temporary name and renamed into place.
 * @returns the directory. @throws the PGlite, `prepare` or file-system error.
 */
export async function writeInitdbTemplate(
  dir: string = initdbTemplateDir(),
  options: WriteInitdbTemplateOptions = {},
): Promise<string> {
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const db = new PGlite({ dataDir: partial, loadDataDir: options.from });
  try {
    await db.waitReady;
    await options.prepare?.(new PgliteExecutor(db));
  } finally {
    await db.close();
  }
  renameSync(partial, dir);
  return dir;
}

/**
 * Makes a NEW data directory (no `PG_VERSION` yet) a fresh cluster by copying
 * {@link initdbTemplateDir} into it, when the build wrote one for the installed PGlite. A
 * directory that holds a cluster is left alone; one a cut-short copy left behind (no
 * `PG_VERSION`) is copied into again, overwriting.
 * @returns whether it copied. @throws the file-system error of the copy.
 */
export function seedFromInitdbTemplate(dataDir: string, template: string = initdbTemplateDir()): boolean {
  if (existsSync(join(dataDir, 'PG_VERSION')) || !existsSync(join(template, 'PG_VERSION'))) return false;
  // PG_VERSION, what marks a cluster, goes last: a copy cut short (kill -9) leaves a directory
  // without it, which the next start copies into again, over whatever half-written files it left.
  const marker = join(template, 'PG_VERSION');
  copyTree(template, dataDir, marker);
  copyFileSync(marker, join(dataDir, 'PG_VERSION'));
  return true;
}

/**
 * Copies the directory tree `from` into `to` (created as needed), overwriting files, leaving out
 * the file `except`. A plain walk of `copyFileSync`: Node 20's `cpSync` spends ≈ 0.3 s more on the
 * template's ≈ 1 000 files in per-file checks this copy does not need (no links, no devices).
 */
function copyTree(from: string, to: string, except: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (source === except) continue;
    if (entry.isDirectory()) copyTree(source, join(to, entry.name), except);
    else copyFileSync(source, join(to, entry.name));
  }
}
