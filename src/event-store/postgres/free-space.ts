import { existsSync, statfsSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Bytes in a MiB. */
export const MIB = 1024 * 1024;

/**
 * Default reserve (LEDGER_DISK_RESERVE_MIB): below it writes are refused, because PGlite cannot
 * survive a full disk. One WAL segment plus room for the data files to grow.
 */
export const DEFAULT_DISK_RESERVE_BYTES = 24 * MIB;

/** What a NEW PGlite data directory takes (docs/decisions.md "Embedded store's disk and backup"). */
export const NEW_DATA_DIR_BYTES = 40 * MIB;

/**
 * What opening an EXISTING data directory may take: crash recovery after an unclean stop writes
 * a new 16 MiB WAL segment (docs/decisions.md "Embedded store's disk and backup").
 */
export const RECOVERY_BYTES = 16 * MIB;

/** Free space, bytes, on the volume holding `dir`. */
export type FreeSpaceProbe = (dir: string) => Promise<number>;

/** Bytes available to this (unprivileged) process on the volume of `path` or its nearest existing ancestor. */
export const freeBytes: FreeSpaceProbe = async (path) => {
  const stats = await statfs(existingAncestor(path));
  return stats.bavail * stats.bsize;
};

/** {@link freeBytes}, synchronously (start-up only). */
export function freeBytesSync(path: string): number {
  const stats = statfsSync(existingAncestor(path));
  return stats.bavail * stats.bsize;
}

function existingAncestor(path: string): string {
  let dir = resolve(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Whole MiB, rounded down, for messages. */
export const mib = (bytes: number) => Math.floor(bytes / MIB);

/** Free space PGlite needs to start in `dataDir` and then take writes (the reserve included). */
export function bytesNeededToOpen(dataDir: string, reserveBytes: number): number {
  const existing = existsSync(join(dataDir, 'PG_VERSION'));
  return (existing ? RECOVERY_BYTES : NEW_DATA_DIR_BYTES) + reserveBytes;
}

/** The volume of the embedded store's data directory has too little free space to start. */
export class InsufficientStorageError extends Error {
  override readonly name = 'InsufficientStorageError';
}

/**
 * Refuses to start PGlite on a nearly full volume, where it would fail half-way.
 * @throws InsufficientStorageError with one line naming the free space found and needed.
 */
export function assertRoomToOpen(dataDir: string, reserveBytes: number): void {
  const needed = bytesNeededToOpen(dataDir, reserveBytes);
  const free = freeBytesSync(dataDir);
  if (free >= needed) return;
  const what = existsSync(join(dataDir, 'PG_VERSION')) ? 'the data directory' : 'a new data directory';
  throw new InsufficientStorageError(
    `not enough free space for the embedded store in ${dataDir}: ${mib(free)} MiB free, ${mib(needed)} MiB needed ` +
      `to open ${what} (${mib(needed - reserveBytes)} MiB, plus the ${mib(reserveBytes)} MiB write reserve, LEDGER_DISK_RESERVE_MIB); free some space, lower LEDGER_DISK_RESERVE_MIB or move LEDGER_DATA_DIR`,
  );
}
