import { PGlite } from '@electric-sql/pglite';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { lockDataDir, LOCK_FILE } from '../event-store/postgres/data-dir-lock.js';
import { freeBytesSync, mib, RECOVERY_BYTES } from '../event-store/postgres/free-space.js';

/** A backup could not be written or restored (bad file, target not empty, no room); exit status 1. */
export class AdminCliError extends Error {
  override readonly name: string = 'AdminCliError';
}

/** What a restore found in the backup. */
export interface RestoreResult {
  /** Events in the restored database. */
  readonly events: number;
  /** Global position of its last event (`-1`: none), decimal. */
  readonly lastPosition: string;
}

/** Prefix of the staging directory a restore builds inside the target (removed when done). */
const STAGING_PREFIX = '.restore-';

/**
 * Restores a backup (a `.tar.gz` from `POST /v1/admin/backup` or `ledger-admin backup`, or an
 * uncompressed tar from PGlite `dumpDataDir`) into `dataDir`, in this order:
 * 1. takes the directory's lock (`ledger.pid`): a directory a running ledger holds is refused
 *    first, even with `force`;
 * 2. refuses a directory that is not empty unless `force`, and too little free space;
 * 3. builds the database in a staging directory inside `dataDir` (same volume): PGlite loads the
 *    tar (`loadDataDir`) and starts on it — crash recovery replays the WAL up to the snapshot —
 *    then the events are counted, a checkpoint written and the database closed;
 * 4. only then replaces what `dataDir` held (with `force`) by the staged files.
 * A refused or failed restore leaves `dataDir` as it was, and removes a directory it created.
 * @throws AdminCliError for an unreadable or corrupt backup, a non-empty target, too little space;
 *   DataDirInUseError when a live process holds the target.
 */
export async function restoreDataDir(file: string, dataDir: string, force = false): Promise<RestoreResult> {
  let tar: Buffer;
  try {
    const bytes = readFileSync(file);
    tar = bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  } catch (error) {
    throw new AdminCliError(`cannot read the backup ${file}: ${(error as Error).message}`);
  }
  const created = !existsSync(dataDir);
  const unlock = lockDataDir(dataDir); // creates the directory; refuses one a live ledger holds
  const staging = join(dataDir, `${STAGING_PREFIX}${process.pid}`);
  let done = false;
  try {
    const present = readdirSync(dataDir).filter((f) => f !== LOCK_FILE);
    if (present.length > 0 && !force) {
      throw new AdminCliError(
        `${dataDir} is not empty (${present.length} entries): restore into a new directory, or pass --force to replace its contents`,
      );
    }
    const needed = tar.length + RECOVERY_BYTES;
    const free = freeBytesSync(dataDir);
    if (free < needed) {
      throw new AdminCliError(
        `not enough free space in ${dataDir}: ${mib(free)} MiB free, ${mib(needed)} MiB needed`,
      );
    }
    const restored = await stage(tar, file, staging);
    for (const entry of present) rmSync(join(dataDir, entry), { recursive: true, force: true });
    for (const entry of readdirSync(staging)) renameSync(join(staging, entry), join(dataDir, entry));
    done = true;
    return restored;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    unlock();
    if (!done && created) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** PGlite started on `tar` in `dir` (which it creates): the events it holds, checkpointed and closed. */
async function stage(tar: Buffer, file: string, dir: string): Promise<RestoreResult> {
  rmSync(dir, { recursive: true, force: true });
  const db = new PGlite({ dataDir: dir, loadDataDir: new Blob([tar], { type: 'application/x-tar' }) });
  try {
    await db.waitReady;
    const { rows } = await db.query<RestoreResult>(
      `select count(*)::int as events, coalesce(max(global_position), -1)::text as "lastPosition" from ledger_events`,
    );
    await db.exec('checkpoint');
    return rows[0]!;
  } catch (error) {
    throw new AdminCliError(`the backup ${file} is not a ledger data directory: ${(error as Error).message}`);
  } finally {
    await db.close().catch(() => undefined);
  }
}
