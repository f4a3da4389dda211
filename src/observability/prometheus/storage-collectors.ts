import { Gauge } from 'prom-client';
import type { FreeSpace, SqlExecutor } from '../../event-store/sql-executor.js';
import type { LedgerMetrics } from './ledger-metrics.js';

/**
 * Registers `ledger_storage_free_bytes{store}` and `ledger_storage_restart_needed_bytes{store}`
 * (docs/production.md "Disk space"), measured at scrape time; samples only for the embedded store.
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
