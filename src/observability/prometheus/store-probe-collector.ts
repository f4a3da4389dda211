import { Gauge } from 'prom-client';
import type { LedgerMetrics } from './ledger-metrics.js';

/** How long a scrape waits for the store's answer before reporting it down, ms. */
export const STORE_PROBE_TIMEOUT_MS = 2_000;

/**
 * Registers `ledger_event_store_up` (1 when `probe` — a read of the event store, as `/health`
 * does — answered within `timeoutMs` at scrape time, else 0). Alert on it together with
 * Prometheus' `up`: when the store is PostgreSQL, API keys live there too, so a down database
 * usually fails the authenticated scrape itself (`up == 0`) before this gauge can say 0.
 */
export function registerStoreProbe(
  metrics: LedgerMetrics,
  probe: () => Promise<unknown>,
  timeoutMs: number = STORE_PROBE_TIMEOUT_MS,
): void {
  const gauge: Gauge = new Gauge({
    name: 'ledger_event_store_up',
    help: '1 when the event store answered a read at scrape time, else 0',
    registers: [metrics.registry],
    async collect() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      });
      try {
        await Promise.race([probe(), timeout]);
        gauge.set(1);
      } catch {
        gauge.set(0);
      } finally {
        clearTimeout(timer);
      }
    },
  });
}
