import { Counter, Gauge } from 'prom-client';
import type { LedgerMetrics } from '../../observability/prometheus/ledger-metrics.js';
import { allTotals } from '../outcome-counters/metrics-queries.js';
import { COUNTERS } from '../outcome-counters/metric-counters.js';
import type { ProjectionRuntime } from '../projection-runtime.js';
import { registerReviewQueueCollectors } from './review-queue-collectors.js';

/**
 * Registers the metrics read at scrape time from the read models (docs/observability.md
 * "Metrics"): the counters of the metrics read model (the same durable numbers on every replica),
 * projection lag and rebuilding, and the review-queue gauges. A database error keeps the
 * previous values.
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
