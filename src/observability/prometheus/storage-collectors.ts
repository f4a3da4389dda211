import { Gauge } from 'prom-client';
import type { FreeSpace, SqlExecutor } from '../../event-store/sql-executor.js';
import type { LedgerMetrics } from './ledger-metrics.js';

/**
 * Registers, measured at scrape time (`SqlExecutor.freeSpace`, one `statfs` each):
 * - `ledger_storage_free_bytes{store}` — free space of the embedded store's volume;
 * - `ledger_storage_restart_needed_bytes{store}` — what reopening its data directory needs
 *   (crash recovery plus the reserve): below it a restart fails (docs/production.md "Disk space").
 * Only the embedded store has samples (`store="pglite"`); on PostgreSQL the volume is not the
 * ledger's to measure and the families stay empty.
 */
export function registerStorageGauges(metrics: LedgerMetrics, sql: SqlExecutor): void {
  // prom-client collects every metric of a scrape at once: each gauge measures for itself
  const gauge = (name: string, help: string, value: (space: FreeSpace) => number) => {
    const g: Gauge<'store'> = new Gauge({
      name,
      help,
      labelNames: ['store'] as const,
      registers: [metrics.registry],
      async collect() {
        const space = await sql.freeSpace?.().catch(() => undefined);
        if (space) g.set({ store: 'pglite' }, value(space));
      },
    });
  };
  gauge('ledger_storage_free_bytes', "Free bytes on the embedded store's volume", (s) => s.freeBytes);
  gauge(
    'ledger_storage_restart_needed_bytes',
    'Free bytes the embedded store needs to reopen its data directory (crash recovery + the write reserve)',
    (s) => s.restartBytes,
  );
}
