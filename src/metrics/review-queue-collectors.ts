import { Gauge } from 'prom-client';
import type { SqlQueryable } from '../event-store/sql-executor.js';
import type { LedgerMetrics } from './ledger-metrics.js';

/**
 * Registers two gauges read at scrape time from the review queue read model
 * (`ledger_rm_review_queue`, one row per operation and reason — `unknown_outcome`,
 * `final_failure`, `duplicate_effect`, `awaiting_approval`):
 * - `ledger_review_queue_items{tenant,reason}` — entries waiting now (for `unknown_outcome`: the
 *   unknown outcomes open);
 * - `ledger_review_queue_oldest_age_seconds{tenant,reason}` — age of the oldest entry, seconds,
 *   measured from its `since` to the system clock `now()` (ms).
 * A (tenant, reason) whose queue emptied disappears from both. A database error keeps the previous
 * values (the scrape still succeeds). Like the counters, every replica reports the same numbers:
 * aggregate with `max by (tenant, reason)`.
 */
export function registerReviewQueueCollectors(
  metrics: LedgerMetrics,
  sql: SqlQueryable,
  now: () => number = Date.now,
): void {
  let pending: Promise<{ tenant: string; reason: string; items: string; oldest: unknown }[]> | null = null;
  const rows = () =>
    (pending ??= sql
      .query<{ tenant: string; reason: string; items: string; oldest: unknown }>(
        `select tenant, reason, count(*)::text as items, min(since) as oldest
           from ledger_rm_review_queue group by tenant, reason`,
      )
      .then((r) => r.rows)
      .finally(() => setTimeout(() => (pending = null), 0)));
  const gauge = (name: string, help: string, value: (row: { items: string; oldest: unknown }) => number) => {
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
    (row) => Math.max(0, (now() - new Date(row.oldest as string | Date).getTime()) / 1000),
  );
}
