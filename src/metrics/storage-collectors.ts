import { Gauge } from 'prom-client';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import type { LedgerMetrics } from './ledger-metrics.js';

/**
 * Registers, measured at scrape time (`SqlExecutor.freeSpace`, one `statfs`):
 * - `ledger_storage_free_bytes{store}` — free space of the embedded store's volume;
 * - `ledger_storage_restart_needed_bytes{store}` — what reopening its data directory needs
 *   (crash recovery plus the reserve): below it a restart fails (docs/production.md "Disk space").
 * Only the embedded store has samples (`store="pglite"`); on PostgreSQL the volume is not the
 * ledger's to measure and the families stay empty.
 */
export function registerStorageGauges(metrics: LedgerMetrics, sql: SqlExecutor): void {
  const free = new Gauge({
    name: 'ledger_storage_free_bytes',
    help: "Free bytes on the embedded store's volume (measured at scrape time)",
    labelNames: ['store'] as const,
    registers: [metrics.registry],
    async collect() {
      const space = await sql.freeSpace?.().catch(() => undefined);
      if (!space) return;
      free.set({ store: 'pglite' }, space.freeBytes);
      restart.set({ store: 'pglite' }, space.restartBytes);
    },
  });
  const restart = new Gauge({
    name: 'ledger_storage_restart_needed_bytes',
    help: 'Free bytes the embedded store needs to reopen its data directory (crash recovery + the write reserve)',
    labelNames: ['store'] as const,
    registers: [metrics.registry],
  });
}
