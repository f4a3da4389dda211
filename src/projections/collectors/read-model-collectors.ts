import { Counter, Gauge } from 'prom-client';
import type { LedgerMetrics } from '../../observability/prometheus/ledger-metrics.js';
import { allTotals } from '../outcome-counters/metrics-queries.js';
import { COUNTERS } from '../outcome-counters/metric-counters.js';
import type { ProjectionRuntime } from '../projection-runtime.js';
import { registerReviewQueueCollectors } from './review-queue-collectors.js';

/**
 * Registers the metrics read at scrape time from the read models, on `metrics.registry`:
 * - `ledger_<counter>_total{tenant,action}` for every duplicate-prevented counter (e.g.
 *   `ledger_duplicate_claims_prevented_total`, `ledger_payload_conflicts_total`,
 *   `ledger_unknown_opened_total`), the values of the metrics read model (so every replica
 *   reports the same, durable numbers — take `max by (tenant, action)` when aggregating);
 * - `ledger_projection_lag_events{read_model}` and `ledger_projection_lag_seconds{read_model}`;
 * - `ledger_projection_rebuilding{read_model}` (1 while an online rebuild runs);
 * - the review-queue gauges of `review-queue-collectors.ts` (unknown outcomes open, their age).
 * A database error leaves the previous values (the scrape still succeeds).
 */
export function registerReadModelCollectors(metrics: LedgerMetrics, runtime: ProjectionRuntime): void {
  const registers = [metrics.registry];
  registerReviewQueueCollectors(metrics, runtime.db.executor);
  // One query serves every counter of a scrape.
  let pending: Promise<Record<string, string>[]> | null = null;
  const totals = () =>
    (pending ??= allTotals(runtime.db.executor).finally(() => setTimeout(() => (pending = null), 0)));
  for (const name of COUNTERS) {
    const metric: Counter<'tenant' | 'action'> = new Counter({
      name: `ledger_${name}_total`,
      help: `Duplicate-prevented metric "${name}" from the metrics read model, by tenant and action`,
      labelNames: ['tenant', 'action'] as const,
      registers,
      async collect() {
        try {
          const rows = await totals();
          metric.reset();
          for (const row of rows)
            metric.inc({ tenant: row.tenant!, action: row.action! }, Number(row[name] ?? 0));
        } catch {
          /* keep the last values */
        }
      },
    });
  }
  let statusPending: ReturnType<ProjectionRuntime['status']> | null = null;
  const status = () =>
    (statusPending ??= runtime.status().finally(() => setTimeout(() => (statusPending = null), 0)));
  const gauge = (
    name: string,
    help: string,
    value: (s: Awaited<ReturnType<ProjectionRuntime['status']>>[number]) => number,
  ) => {
    const metric: Gauge<'read_model'> = new Gauge({
      name,
      help,
      labelNames: ['read_model'] as const,
      registers,
      async collect() {
        try {
          for (const s of await status()) metric.set({ read_model: s.name }, value(s));
        } catch {
          /* keep the last values */
        }
      },
    });
  };
  gauge(
    'ledger_projection_lag_events',
    'Events committed after the read model checkpoint',
    (s) => s.lag.events,
  );
  gauge(
    'ledger_projection_lag_seconds',
    'Age of the oldest event the read model has not applied, seconds',
    (s) => s.lag.seconds,
  );
  gauge('ledger_projection_rebuilding', '1 while an online rebuild of the read model runs', (s) =>
    s.rebuild ? 1 : 0,
  );
}
