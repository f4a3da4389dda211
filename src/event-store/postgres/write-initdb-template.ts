import { renameSync, rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { initdbTemplateDir } from './initdb-template.js';
import { PgliteExecutor } from './pglite-executor.js';
import { pgliteStartParams } from './pglite-start-params.js';

/** Options of {@link writeInitdbTemplate}. */
export interface WriteInitdbTemplateOptions {
  /** Run on the new cluster before it is closed (the build installs every ledger schema). */
  readonly prepare?: (executor: PgliteExecutor) => Promise<unknown>;
  /** A PGlite dump to start from instead of running initdb (tests). */
  readonly from?: Blob | File;
}

/**
 * Writes {@link initdbTemplateDir} at build time: initdb, then `prepare`, closed cleanly, under a
 * temporary name renamed into place (docs/decisions.md "A new embedded data directory starts as a
 * copy of a fresh cluster the build ships").
 * @returns the directory. @throws the PGlite, `prepare` or file-system error.
 */
export async function writeInitdbTemplate(
  dir: string = initdbTemplateDir(),
  options: WriteInitdbTemplateOptions = {},
): Promise<string> {
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  const db = new PGlite({ dataDir: partial, loadDataDir: options.from, startParams: pgliteStartParams() });
  try {
    await db.waitReady;
    await options.prepare?.(new PgliteExecutor(db));
  } finally {
    await db.close();
  }
  renameSync(partial, dir);
  return dir;
}
