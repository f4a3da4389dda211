import { PGlite } from '@electric-sql/pglite';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DataDirInUseError, lockDataDir, LOCK_FILE } from '../event-store/postgres/data-dir-lock.js';
import {
  isRestoreEntry,
  RESTORE_ASIDE_PREFIX,
  RESTORE_MARKER,
  RESTORE_STAGING_PREFIX,
} from '../event-store/postgres/restore-marker.js';
import { freeBytesSync, mib, RECOVERY_BYTES } from '../event-store/postgres/free-space.js';
import { pgliteStartParams } from '../event-store/postgres/pglite-start-params.js';
import { STORED_EVENTS_SUMMARY } from '../event-store/sql/statements/stored-events-summary.js';

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

/** File-system calls of a restore's swap, replaceable by tests (to fail one half way). */
export interface RestoreFs {
  readonly rename: (from: string, to: string) => void;
}

/**
 * Restores a backup (`.tar.gz` from `ledger-admin backup`, or a PGlite `dumpDataDir` tar) into
 * `dataDir`: built in a staging directory on the same volume, then swapped in under the
 * `restore-in-progress` marker (docs/production.md "Backups"). A refused or failed restore leaves
 * `dataDir` as it was.
 * @throws AdminCliError for an unreadable or corrupt backup, a target that is not a directory or
 *   not empty, too little space, a swap that failed (rolled back); DataDirInUseError when a live
 *   process holds the target.
 */
export async function restoreDataDir(
  file: string,
  dataDir: string,
  force = false,
  fs: RestoreFs = { rename: renameSync },
): Promise<RestoreResult> {
  const created = !existsSync(dataDir);
  const unlock = lockTarget(dataDir); // refuses one a live ledger holds
  const staging = join(dataDir, `${RESTORE_STAGING_PREFIX}${process.pid}`);
  let done = false;
  try {
    const entries = readdirSync(dataDir).filter((f) => f !== LOCK_FILE);
    const unfinished = entries.includes(RESTORE_MARKER);
    for (const leftover of entries.filter((e) => isRestoreEntry(e) && e !== RESTORE_MARKER)) {
      rmSync(join(dataDir, leftover), { recursive: true, force: true }); // a killed restore's (we hold the lock)
    }
    const present = readdirSync(dataDir).filter((f) => f !== LOCK_FILE && f !== RESTORE_MARKER);
    if ((present.length > 0 || unfinished) && !force) {
      throw new AdminCliError(
        unfinished
          ? `a restore into ${dataDir} did not finish: pass --force to replace what it left`
          : `${dataDir} is not empty (${present.length} entries): restore into a new directory, or pass --force to replace its contents`,
      );
    }
    const tar = readBackup(file); // after the target's refusals: a large backup is not read for nothing
    const needed = tar.length + RECOVERY_BYTES;
    const free = freeBytesSync(dataDir);
    if (free < needed) {
      throw new AdminCliError(
        `not enough free space in ${dataDir}: ${mib(free)} MiB free, ${mib(needed)} MiB needed`,
      );
    }
    const restored = await stage(tar, file, staging);
    swapIn(dataDir, staging, present, fs);
    done = true;
    return restored;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    unlock();
    if (!done && created) rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The tar of backup `file`, gunzipped when it is gzip.
 * @throws AdminCliError when it cannot be read or decompressed.
 */
function readBackup(file: string): Buffer {
  try {
    const bytes = readFileSync(file);
    return bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes;
  } catch (error) {
    throw new AdminCliError(`cannot read the backup ${file}: ${(error as Error).message}`);
  }
}

/** {@link lockDataDir} for a restore: a target that cannot be a directory is refused in words. */
function lockTarget(dataDir: string): () => void {
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
    throw new AdminCliError(`${dataDir} is not a directory: name a directory to restore into`);
  }
  try {
    return lockDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw error;
    throw new AdminCliError(`cannot restore into ${dataDir}: ${(error as Error).message}`);
  }
}

/**
 * Replaces `present` (entries of `dataDir`) by those of `staging` under the {@link RESTORE_MARKER};
 * a failed rename renames everything back.
 * @throws AdminCliError when the swap failed and was rolled back.
 */
function swapIn(dataDir: string, staging: string, present: readonly string[], fs: RestoreFs): void {
  const marker = join(dataDir, RESTORE_MARKER);
  const aside = join(dataDir, `${RESTORE_ASIDE_PREFIX}${process.pid}`);
  writeFileSync(marker, `restore by process ${process.pid} at ${new Date().toISOString()}\n`);
  mkdirSync(aside);
  const movedAside: string[] = [];
  const movedIn: string[] = [];
  try {
    for (const entry of present) {
      fs.rename(join(dataDir, entry), join(aside, entry));
      movedAside.push(entry);
    }
    for (const entry of readdirSync(staging)) {
      fs.rename(join(staging, entry), join(dataDir, entry));
      movedIn.push(entry);
    }
  } catch (error) {
    for (const entry of movedIn.reverse()) renameSync(join(dataDir, entry), join(staging, entry));
    for (const entry of movedAside.reverse()) renameSync(join(aside, entry), join(dataDir, entry));
    rmSync(aside, { recursive: true, force: true });
    rmSync(marker, { force: true });
    throw new AdminCliError(
      `could not replace the contents of ${dataDir} (${(error as Error).message}): it was left as it was`,
    );
  }
  rmSync(marker);
  try {
    rmSync(aside, { recursive: true, force: true });
  } catch (error) {
    process.stderr.write(
      `warning: the replaced files stay in ${aside} (${(error as Error).message}): remove it by hand\n`,
    );
  }
}

/** PGlite started on `tar` in `dir` (which it creates): the events it holds, checkpointed and closed. */
async function stage(tar: Buffer, file: string, dir: string): Promise<RestoreResult> {
  const db = new PGlite({
    dataDir: dir,
    loadDataDir: new Blob([tar], { type: 'application/x-tar' }),
    startParams: pgliteStartParams(),
  });
  try {
    await db.waitReady;
    const { rows } = await db.query<RestoreResult>(STORED_EVENTS_SUMMARY.text);
    await db.exec('checkpoint');
    return rows[0]!;
  } catch (error) {
    throw new AdminCliError(`the backup ${file} is not a ledger data directory: ${(error as Error).message}`);
  } finally {
    await db.close().catch(() => undefined);
  }
}
