import type { FreeSpace } from '../event-store/sql-executor.js';

const mib = (bytes: number) => Math.floor(bytes / (1024 * 1024));

/**
 * The readiness warning while the embedded store takes writes but a restart could not reopen it
 * (docs/production.md "Disk space"); undefined otherwise, or when free space is unknown.
 */
export function restartWarning(space: FreeSpace | undefined): string | undefined {
  if (!space || space.freeBytes >= space.restartBytes || space.freeBytes < space.reserveBytes)
    return undefined;
  const recovery = space.restartBytes - space.reserveBytes;
  return (
    `storage: ${mib(space.freeBytes)} MiB free, a restart needs ${mib(space.restartBytes)} MiB ` +
    `(${mib(recovery)} for crash recovery + the ${mib(space.reserveBytes)} MiB reserve, LEDGER_DISK_RESERVE_MIB): ` +
    `free space on the data directory's volume before the next restart or deploy`
  );
}
