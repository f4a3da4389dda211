import type { FreeSpace } from '../event-store/sql-executor.js';
import { positive } from './upload/upload-limits.js';
import type { TenantBoundRefusal } from './upload-refusal.js';
import { formatBytes } from './upload/upload-stream.js';

const MIB = 1024 * 1024;

/** How much disk reconciliation may take (docs/reconciliation.md "Storage bounds"). */
export interface StorageBounds {
  /** Most spilled rows a tenant's runs keep at once (LEDGER_RECONCILIATION_TENANT_MAX_ROWS). */
  readonly tenantMaxRows: number;
  /** Most bytes of spilled rows a tenant's runs keep at once (LEDGER_RECONCILIATION_TENANT_MAX_BYTES). */
  readonly tenantMaxBytes: number;
  /**
   * Free space, bytes, that reconciliation work leaves above what a restart of the embedded store
   * needs (LEDGER_RECONCILIATION_DISK_HEADROOM_MIB): a chunk starts only with this much more free,
   * so one chunk's writes cannot reach the write reserve that claims depend on.
   */
  readonly diskHeadroomBytes: number;
}

/**
 * Bounds from the environment: `LEDGER_RECONCILIATION_TENANT_MAX_ROWS` (default 2 000 000),
 * `LEDGER_RECONCILIATION_TENANT_MAX_BYTES` (default 1 GiB), `LEDGER_RECONCILIATION_DISK_HEADROOM_MIB`
 * (default 64).
 * @throws Error naming the variable when it is not a positive integer.
 */
export function storageBoundsFromEnv(): StorageBounds {
  return {
    tenantMaxRows: positive('LEDGER_RECONCILIATION_TENANT_MAX_ROWS', 2_000_000),
    tenantMaxBytes: positive('LEDGER_RECONCILIATION_TENANT_MAX_BYTES', 1024 ** 3),
    diskHeadroomBytes: positive('LEDGER_RECONCILIATION_DISK_HEADROOM_MIB', 64) * MIB,
  };
}

/** Rows and bytes (the JSON text of spilled rows). */
export interface Stored {
  readonly rows: number;
  readonly bytes: number;
}

/**
 * The refusal (answered 413 `payload-too-large`) when writing `batch` would take the tenant's kept
 * rows or bytes (`stored`, this upload's earlier batches included) past its bound, naming the
 * bound and its setting; undefined when it fits.
 */
export function tenantBoundRefusal(
  tenant: string,
  stored: Stored,
  batch: Stored,
  bounds: StorageBounds,
): TenantBoundRefusal | undefined {
  const over = (limit: string, setting: string, kept: string): TenantBoundRefusal => ({
    kind: 'over-tenant-bound',
    tenant,
    limit,
    setting,
    kept,
  });
  if (stored.rows + batch.rows > bounds.tenantMaxRows)
    return over(
      `${bounds.tenantMaxRows} rows`,
      'LEDGER_RECONCILIATION_TENANT_MAX_ROWS',
      `${stored.rows} rows`,
    );
  if (stored.bytes + batch.bytes > bounds.tenantMaxBytes)
    return over(
      formatBytes(bounds.tenantMaxBytes),
      'LEDGER_RECONCILIATION_TENANT_MAX_BYTES',
      `${stored.bytes} bytes`,
    );
  return undefined;
}

/**
 * Why reconciliation work must not start its next chunk: less than what a restart needs plus
 * `headroomBytes` is free. Undefined when there is room, or when free space is unknown (PostgreSQL:
 * its own disk-full answers stop the run).
 */
export function diskFloorReason(space: FreeSpace | undefined, headroomBytes: number): string | undefined {
  if (!space) return undefined;
  const floor = space.restartBytes + headroomBytes;
  if (space.freeBytes >= floor) return undefined;
  const mib = (n: number) => Math.floor(n / MIB);
  return (
    `storage: ${mib(space.freeBytes)} MiB free on the data directory's volume; reconciliation work needs ` +
    `${mib(floor)} MiB (what a restart needs, ${mib(space.restartBytes)} MiB, + LEDGER_RECONCILIATION_DISK_HEADROOM_MIB ` +
    `${mib(headroomBytes)} MiB), so claims keep their room`
  );
}

/** Reconciliation work stopped before a chunk: too little free space ({@link diskFloorReason}). */
export class DiskFloorError extends Error {
  override readonly name = 'DiskFloorError';
}
