import { Gauge } from 'prom-client';
import type { LedgerMetrics } from './ledger-metrics.js';

/** How long a scrape waits for the store's answer before reporting it down, ms. */
export const STORE_PROBE_TIMEOUT_MS = 2_000;

/**
 * Registers `ledger_event_store_up` (1 when `probe` answered within `timeoutMs`). Alert on it with
 * `up`: on PostgreSQL a down database usually fails the authenticated scrape itself first.
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
