import type { FreeSpace } from '../event-store/sql-executor.js';

const mib = (bytes: number) => Math.floor(bytes / (1024 * 1024));

/**
 * The readiness warning while the embedded store takes writes (free space at or above its
 * reserve) but a restart could not reopen it (below `restartBytes`: crash recovery plus the
 * reserve, docs/production.md "Disk space"), e.g. `storage: 27 MiB free, a restart needs 40 MiB
 * (…)`. Undefined when there is room, when writes are refused already (readiness is 503 then), or
 * when free space is unknown.
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
