import { ADMIN_KEY_FILE } from '../auth/announce-bootstrap.js';
import { isLockFile } from '../event-store/postgres/data-dir-lock.js';
import { isRestoreEntry } from '../event-store/postgres/restore-marker.js';
import type { PgliteExecutor } from '../event-store/postgres/pglite-executor.js';
import { LAST_GLOBAL_POSITION } from '../event-store/sql/statements/stored-events-summary.js';
import { withoutEntries } from './tar-entries.js';

/** A consistent copy of the embedded store's data directory. */
export interface DataDirSnapshot {
  /** The data directory as an uncompressed tar (PGlite's `dumpDataDir` format, what `loadDataDir` reads). */
  readonly tar: Uint8Array;
  /** Global position of the last event in it (`-1` for none), as a decimal string. */
  readonly lastPosition: string;
}

/** Files of the data directory that are this process's, not the database's (left out of backups). */
export function isProcessFile(name: string): boolean {
  const file = name.replace(/^\/+/, '');
  return isLockFile(file) || file.startsWith(ADMIN_KEY_FILE) || isRestoreEntry(file.split('/')[0]!);
}

/**
 * Takes a snapshot of the embedded database while it serves: inside the executor's serialisation
 * no statement runs, so data files and WAL are those of one instant — what crash recovery starts
 * from. A `CHECKPOINT` first keeps a restore's replay short. The copy is in memory (RAM ≈ the
 * directory's size); requests wait (docs/decisions.md "Embedded store's disk and backup").
 * @throws StorageUnavailableError while the database is stopped after a storage failure.
 */
export async function snapshotDataDir(executor: PgliteExecutor): Promise<DataDirSnapshot> {
  return executor.runExclusive(async (db) => {
    const { rows } = await db.query<{ lastPosition: string }>(LAST_GLOBAL_POSITION.text);
    if (!executor.storageProblem()) await db.exec('checkpoint');
    const dump = await db.dumpDataDir('none');
    return {
      tar: await withoutEntries(new Uint8Array(await dump.arrayBuffer()), isProcessFile),
      lastPosition: rows[0]!.lastPosition,
    };
  });
}
