// The pure rules that keep a reconciliation from filling the shared disk (docs/reconciliation.md
// "Storage bounds"): the tenant's bounds name the limit that was hit, work stops above what a
// restart needs, and chunks shrink with wide rows so one chunk cannot write through the headroom.
import { chunkLines, MAX_CHUNK_LINES, MIN_CHUNK_LINES } from '../../src/reconciliation/job/chunk-lines.js';
import { uploadRefusalProblem } from '../../src/reconciliation/http/reconciliation-http-answer.js';
import {
  diskFloorReason,
  tenantBoundRefusal,
  type Stored,
  type StorageBounds,
} from '../../src/reconciliation/storage-bounds.js';

const MIB = 1024 * 1024;
const bounds: StorageBounds = { tenantMaxRows: 1000, tenantMaxBytes: 64 * 1024, diskHeadroomBytes: 64 * MIB };

/** The refusal as the HTTP edge answers it (undefined when the batch fits). */
const tenantBoundProblem = (tenant: string, stored: Stored, batch: Stored, b: StorageBounds) => {
  const refusal = tenantBoundRefusal(tenant, stored, batch, b);
  return refusal && uploadRefusalProblem(refusal);
};

describe("a tenant's bounds on kept reconciliation rows", () => {
  it('let a batch through up to the bound, counting what the tenant keeps already', () => {
    expect(tenantBoundProblem('acme', { rows: 900, bytes: 1000 }, { rows: 100, bytes: 1000 }, bounds)).toBe(
      undefined,
    );
  });

  it('refuse past the row bound with 413 naming the limit and its setting', () => {
    const refused = tenantBoundProblem('acme', { rows: 900, bytes: 0 }, { rows: 101, bytes: 10 }, bounds);
    expect(refused?.problem.status).toBe(413);
    expect(refused?.problem).toMatchObject({
      code: 'payload-too-large',
      errors: [
        { field: 'body', message: 'at most 1000 rows per tenant (LEDGER_RECONCILIATION_TENANT_MAX_ROWS)' },
      ],
    });
    expect(refused?.problem.detail).toMatch(/^tenant acme may keep at most 1000 rows .* keep 900 rows/);
    expect(refused?.problem).toEqual({
      type: 'https://operation-ledger.dev/problems/payload-too-large',
      title: expect.any(String),
      status: 413,
      detail:
        'tenant acme may keep at most 1000 rows of reconciliation uploads (LEDGER_RECONCILIATION_TENANT_MAX_ROWS); ' +
        'its runs keep 900 rows and this upload goes past it. Nothing of it was kept; retry once earlier runs ' +
        'finished (their rows are then removed)',
      code: 'payload-too-large',
      errors: [
        { field: 'body', message: 'at most 1000 rows per tenant (LEDGER_RECONCILIATION_TENANT_MAX_ROWS)' },
      ],
    });
    expect(refused?.headers).toEqual({});
  });

  it('refuse past the byte bound naming it in KiB', () => {
    const refused = tenantBoundProblem(
      'acme',
      { rows: 1, bytes: 60 * 1024 },
      { rows: 1, bytes: 5 * 1024 },
      bounds,
    );
    expect(refused?.problem.errors).toEqual([
      { field: 'body', message: 'at most 64 KiB per tenant (LEDGER_RECONCILIATION_TENANT_MAX_BYTES)' },
    ]);
  });
});

describe('the free space reconciliation work leaves', () => {
  const space = (freeMiB: number) => ({
    freeBytes: freeMiB * MIB,
    reserveBytes: 24 * MIB,
    restartBytes: 40 * MIB,
  });

  it('stops work below what a restart needs plus the headroom, naming both and the setting', () => {
    expect(diskFloorReason(space(104), 64 * MIB)).toBeUndefined();
    expect(diskFloorReason(space(103), 64 * MIB)).toBe(
      "storage: 103 MiB free on the data directory's volume; reconciliation work needs 104 MiB " +
        '(what a restart needs, 40 MiB, + LEDGER_RECONCILIATION_DISK_HEADROOM_MIB 64 MiB), so claims keep their room',
    );
  });

  it('does not judge a volume it cannot measure (PostgreSQL)', () => {
    expect(diskFloorReason(undefined, 64 * MIB)).toBeUndefined();
  });
});

describe('lines per phase chunk', () => {
  it('is the most for narrow rows and for a run without rows', () => {
    expect(chunkLines({ rows: 1_000_000, bytes: 60_000_000 }, 64 * MIB)).toBe(MAX_CHUNK_LINES);
    expect(chunkLines({ rows: 0, bytes: 0 }, 64 * MIB)).toBe(MAX_CHUNK_LINES);
  });

  it('shrinks with wide rows so that a chunk writes a sixteenth of the headroom in spilled bytes', () => {
    const lines = chunkLines({ rows: 1000, bytes: 1000 * 32 * 1024 }, 64 * MIB);
    expect(lines).toBe(128);
    expect(lines * 32 * 1024 * 16).toBeLessThanOrEqual(64 * MIB);
    expect(chunkLines({ rows: 10, bytes: 10 * 64 * MIB }, 64 * MIB)).toBe(MIN_CHUNK_LINES);
  });
});
