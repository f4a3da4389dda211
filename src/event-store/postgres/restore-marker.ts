import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Written by `ledger-admin restore` before it swaps files in, removed after. Found at start-up, a
 * restore was killed half way: opening the directory could silently create an empty database.
 */
export const RESTORE_MARKER = 'restore-in-progress';

/** Prefixes of the directories a running restore keeps inside the data directory. */
export const RESTORE_STAGING_PREFIX = '.restore-';
export const RESTORE_ASIDE_PREFIX = '.replaced-';

/** Whether `entry` (a top-level name in a data directory) is a restore's own: its marker, staging or set-aside files. */
export function isRestoreEntry(entry: string): boolean {
  return (
    entry === RESTORE_MARKER ||
    entry.startsWith(RESTORE_STAGING_PREFIX) ||
    entry.startsWith(RESTORE_ASIDE_PREFIX)
  );
}

/** A restore into the data directory did not finish (see {@link RESTORE_MARKER}). */
export class IncompleteRestoreError extends Error {
  override readonly name = 'IncompleteRestoreError';
}

/**
 * Refuses a data directory a restore was killed in the middle of.
 * @throws IncompleteRestoreError naming the directory and what to run.
 */
export function assertNoIncompleteRestore(dataDir: string): void {
  if (!existsSync(join(dataDir, RESTORE_MARKER))) return;
  throw new IncompleteRestoreError(
    `a restore into ${dataDir} did not finish (${join(dataDir, RESTORE_MARKER)} is there): the directory may hold parts of two databases; run \`npm run ledger-admin -- restore <backup> ${dataDir} --force\` again`,
  );
}
