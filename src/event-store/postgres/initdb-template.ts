import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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
 * Where the build keeps a fresh cluster for PGlite `version`: in the nearest `dist` ancestor of
 * `from`, so compiled modules and the server bundle find the same one.
 */
export function initdbTemplateDir(
  version: string = pgliteVersion(),
  from: string = dirname(fileURLToPath(import.meta.url)),
): string {
  let dist = from;
  while (basename(dist) !== 'dist' && dirname(dist) !== dist) dist = dirname(dist);
  return join(basename(dist) === 'dist' ? dist : from, `pglite-${version}-initdb`);
}

/**
 * Makes a NEW data directory (no `PG_VERSION`) a fresh cluster by copying {@link initdbTemplateDir}
 * into it (docs/decisions.md "A new embedded data directory starts as a copy of a fresh cluster the
 * build ships"). `PG_VERSION`, what marks a cluster, goes last, so a cut-short copy is redone.
 * Asynchronous, so it runs while the modules load (docs/decisions.md "Start-up").
 * @returns whether it copied. @throws (rejects with) the file-system error of the copy.
 */
export async function seedFromInitdbTemplate(
  dataDir: string,
  template: string = initdbTemplateDir(),
): Promise<boolean> {
  if (existsSync(join(dataDir, 'PG_VERSION')) || !existsSync(join(template, 'PG_VERSION'))) return false;
  const marker = join(template, 'PG_VERSION');
  const files: [string, string][] = [];
  const walk = async (from: string, to: string): Promise<void> => {
    await mkdir(to, { recursive: true });
    for (const entry of await readdir(from, { withFileTypes: true })) {
      const source = join(from, entry.name);
      if (source === marker) continue;
      if (entry.isDirectory()) await walk(source, join(to, entry.name));
      else files.push([source, join(to, entry.name)]);
    }
  };
  await walk(template, dataDir);
  let next = 0;
  const copier = async () => {
    while (next < files.length) {
      const [source, target] = files[next++]!;
      await copyFile(source, target);
    }
  };
  await Promise.all(Array.from({ length: COPIES_AT_ONCE }, copier));
  await copyFile(marker, join(dataDir, 'PG_VERSION'));
  return true;
}

/** Files copied at once by {@link seedFromInitdbTemplate}: libuv's default thread pool size. */
const COPIES_AT_ONCE = 4;
