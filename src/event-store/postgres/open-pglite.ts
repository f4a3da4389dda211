import { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock.js';
import { takeOpenedAhead } from './early-open.js';
import { initdbTemplateDir, seedFromInitdbTemplate } from './initdb-template.js';
import { assertRoomToOpen, DEFAULT_DISK_RESERVE_BYTES } from './free-space.js';
import { PgliteExecutor, type StorageLog } from './pglite-executor.js';
import { PgliteThread } from './pglite-thread.js';
import { assertNoIncompleteRestore } from './restore-marker.js';
import { StorageGuard } from './storage-guard.js';
import { WalCheckpoints } from './wal-checkpoints.js';
import { pgliteStartParams } from './pglite-start-params.js';

/** Options of {@link openPglite}. */
export interface OpenPgliteOptions {
  /** Directory of the database files (created if missing); in memory when omitted or `memory://…`. */
  readonly dataDir?: string;
  /** A data-directory dump (tar from `dumpDataDir()`) to start a NEW database from (PGlite `loadDataDir`). */
  readonly loadDataDir?: Blob;
  /**
   * Free space kept in reserve on the data directory's volume, bytes (see {@link StorageGuard});
   * @defaultValue {@link DEFAULT_DISK_RESERVE_BYTES}
   */
  readonly diskReserveBytes?: number;
  /** Where storage transitions are reported (refusing writes, stopped, reopened). */
  readonly log?: StorageLog;
  /** The fresh cluster a new directory is copied from when present; default {@link initdbTemplateDir}. */
  readonly initdbTemplate?: string;
}

/** An opened embedded database and how to release it. */
export interface OpenedPglite {
  readonly executor: PgliteExecutor;
  /** Closes the executor (and PGlite), then releases the data directory's lock. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens PGlite. A data directory on disk is locked for this process, refused when its volume is
 * nearly full or a restore was killed in it, guarded (docs/production.md "Disk space"),
 * checkpointed every 64 MiB of WAL (PGlite has no checkpointer) and run on a worker thread
 * ({@link PgliteThread}); in memory (tests) it runs in this thread.
 * @throws InsufficientStorageError (one line naming the free space needed); DataDirInUseError;
 *   IncompleteRestoreError; the PGlite start-up error.
 */
export async function openPglite(options: OpenPgliteOptions): Promise<OpenedPglite> {
  const { dataDir } = options;
  if (!dataDir || dataDir.startsWith('memory://')) {
    const db = new PGlite({ dataDir, loadDataDir: options.loadDataDir, startParams: pgliteStartParams() });
    await db.waitReady;
    const executor = new PgliteExecutor(db);
    return { executor, close: () => executor.close() };
  }
  const reserveBytes = options.diskReserveBytes ?? DEFAULT_DISK_RESERVE_BYTES;
  // main.ts may have locked the directory and started opening it while the modules loaded.
  const ahead = options.loadDataDir ? undefined : takeOpenedAhead(dataDir);
  if (!ahead) assertRoomToOpen(dataDir, reserveBytes);
  const unlock = ahead?.unlock ?? lockDataDir(dataDir);
  let db: PgliteThread | undefined;
  try {
    assertNoIncompleteRestore(dataDir);
    if (ahead) db = await ahead.opened;
    else {
      if (!options.loadDataDir)
        await seedFromInitdbTemplate(dataDir, options.initdbTemplate ?? initdbTemplateDir());
      db = await PgliteThread.open({ dataDir, loadDataDir: options.loadDataDir });
    }
    let current = db;
    const guard = new StorageGuard({ dataDir, reserveBytes });
    await guard.start();
    // the stopped instance's thread is ended (a PGlite that failed a WAL write spins), then a new one opens
    const reopen = async () => {
      await current.terminate();
      current = await PgliteThread.open({ dataDir });
      return current;
    };
    const executor = new PgliteExecutor(db, { guard, reopen, log: options.log });
    const checkpoints = new WalCheckpoints(executor, { guard });
    checkpoints.start();
    return {
      executor,
      close: async () => {
        checkpoints.stop();
        try {
          await executor.close();
        } finally {
          await current.terminate();
          unlock();
        }
      },
    };
  } catch (error) {
    db ??= await ahead?.opened.catch(() => undefined); // opened ahead, not taken over yet
    await db?.close().catch(() => undefined);
    unlock();
    throw error;
  }
}
