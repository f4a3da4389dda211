import { Gauge } from 'prom-client';
import type { SqlQueryable } from '../../event-store/sql-executor.js';
import type { LedgerMetrics } from '../../observability/prometheus/ledger-metrics.js';
import { type ReviewQueueDepth, reviewQueueDepths } from '../operation-views/review-queue-queries.js';

/**
 * Registers `ledger_review_queue_items{tenant,reason}` and
 * `ledger_review_queue_oldest_age_seconds{tenant,reason}`, read at scrape time from the review
 * queue ({@link reviewQueueDepths}). A database error keeps the previous values.
 */
export function registerReviewQueueCollectors(
  metrics: LedgerMetrics,
  sql: SqlQueryable,
  now: () => number = Date.now,
): void {
  let pending: Promise<ReviewQueueDepth[]> | null = null;
  const rows = () =>
    (pending ??= reviewQueueDepths(sql).finally(() => setTimeout(() => (pending = null), 0)));
  const gauge = (name: string, help: string, value: (row: ReviewQueueDepth) => number) => {
    const metric: Gauge<'tenant' | 'reason'> = new Gauge({
      name,
      help,
      labelNames: ['tenant', 'reason'] as const,
      registers: [metrics.registry],
      async collect() {
        try {
          const current = await rows();
          metric.reset();
          for (const row of current) metric.set({ tenant: row.tenant, reason: row.reason }, value(row));
        } catch {
          /* keep the last values */
        }
      },
    });
  };
  gauge('ledger_review_queue_items', 'Review queue entries waiting now, by tenant and reason', (row) =>
    Number(row.items),
  );
  gauge(
    'ledger_review_queue_oldest_age_seconds',
    'Age of the oldest review queue entry in seconds, by tenant and reason',
    (row) => Math.max(0, (now() - new Date(row.oldestSince).getTime()) / 1000),
  );
}
