// Readiness says when the embedded store could not be restarted: it takes writes down to its
// reserve, but reopening the data directory needs room for crash recovery on top of it
// (docs/production.md "Disk space"). Below that, readiness stays 200 (the replica serves) with
// status `degraded` and the reason, so a deploy does not turn into a crash loop unannounced.
import { LEDGER_CAPABILITIES } from '@operation-ledger/protocol';
import { HealthController } from '../../src/health/health.controller.js';
import { LedgerMetrics } from '../../src/observability/prometheus/ledger-metrics.js';
import { registerStorageGauges } from '../../src/observability/prometheus/storage-collectors.js';
import type { LedgerConfig } from '../../src/config/ledger-config.js';
import type { EventStore } from '../../src/event-store/event-store.port.js';
import type { FreeSpace, SqlExecutor } from '../../src/event-store/sql-executor.js';

const MIB = 1024 * 1024;

function controller(space: FreeSpace | undefined, storageProblem?: string): HealthController {
  const store = { read: async () => ({ events: [] }) } as unknown as EventStore;
  const sql = {
    storageProblem: () => storageProblem,
    freeSpace: async () => space,
  } as unknown as SqlExecutor;
  return new HealthController(store, { store: 'pglite' } as LedgerConfig, sql);
}

const space = (freeMiB: number): FreeSpace => ({
  freeBytes: freeMiB * MIB,
  reserveBytes: 24 * MIB,
  restartBytes: 40 * MIB,
});

describe('readiness and the free space a restart needs', () => {
  it('is degraded, naming both figures, while writes are taken but a restart could not open the store', async () => {
    const answer = await controller(space(27)).ready();
    expect(answer).toMatchObject({ status: 'degraded', store: 'pglite', capabilities: LEDGER_CAPABILITIES });
    expect(answer.warnings).toEqual([
      expect.stringMatching(/^storage: 27 MiB free, a restart needs 40 MiB \(.*LEDGER_DISK_RESERVE_MIB.*\)/),
    ]);
  });

  it('is ok with room to restart, and when free space is not the ledger’s to measure (PostgreSQL)', async () => {
    const ok = { status: 'ok', store: 'pglite', capabilities: LEDGER_CAPABILITIES };
    expect(await controller(space(40)).ready()).toEqual(ok);
    expect(await controller(undefined).ready()).toEqual(ok);
  });

  it('stays 503 below the reserve', async () => {
    await expect(controller(space(20), 'storage: disk full, 20 MiB free, need 24').ready()).rejects.toThrow(
      /disk full/,
    );
  });
});

describe('the storage gauges the alert compares', () => {
  const scrape = async (space: FreeSpace | undefined) => {
    const metrics = new LedgerMetrics();
    registerStorageGauges(metrics, { freeSpace: async () => space } as unknown as SqlExecutor);
    return metrics.registry.metrics();
  };

  it('report the free space and what a restart needs, in one scrape', async () => {
    const text = await scrape(space(27));
    expect(text).toContain(`ledger_storage_free_bytes{store="pglite"} ${27 * MIB}`);
    expect(text).toContain(`ledger_storage_restart_needed_bytes{store="pglite"} ${40 * MIB}`);
  });

  it('have no samples where the volume is not the ledger’s (PostgreSQL)', async () => {
    expect(await scrape(undefined)).not.toMatch(/^ledger_storage_\w+\{/m);
  });
});
