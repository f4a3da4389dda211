import type { ReviewItem, ReviewQueueFilter, ReviewReason } from '@operation-ledger/protocol';
import type { SqlQueryable } from '../../event-store/sql-executor.js';
import { iso, SqlFilter } from '../core/sql-values.js';

/** Filters and page of the review queue. */
export interface ReviewQuery extends ReviewQueueFilter {
  readonly tenant: string;
  readonly limit: number;
  /** `[since ISO, operationId, reason]` of the last entry of the previous page. */
  readonly after?: readonly string[];
  /** The server clock, epoch ms (ages are `now − since`). */
  readonly now: number;
}

/** Count and oldest entry per reason of a tenant's review queue. */
export type ReviewSummary = Record<string, { count: number; oldestSince: string | null }>;

/** One page of a tenant's review queue, oldest first, with each entry's age and details. */
export async function queryReviewQueue(
  sql: SqlQueryable,
  q: ReviewQuery,
): Promise<{ items: ReviewItem[]; last: string[] | null }> {
  const f = new SqlFilter()
    .add('tenant = ?', q.tenant)
    .addIf('reason = ?', q.reason)
    .addIf('action = ?', q.action);
  if (q.after) f.add('(since, operation_id, reason) > (?::timestamptz, ?::uuid, ?)', ...q.after);
  const { rows } = await sql.query<{
    operation_id: string;
    reason: string;
    tenant: string;
    source: string;
    action: string;
    subject: string;
    revision: number;
    since: unknown;
    detail: Record<string, unknown>;
    last_position: string;
  }>(
    `select operation_id::text as operation_id, reason, tenant, source, action, subject, revision, since, detail,
            last_position::text as last_position
       from ledger_rm_review_queue where ${f.where}
      order by ledger_rm_review_queue.since, ledger_rm_review_queue.operation_id, reason limit ${f.param(q.limit + 1)}`,
    f.params,
  );
  const items = rows.slice(0, q.limit).map((r): ReviewItem => {
    const since = iso(r.since)!;
    return {
      operationId: r.operation_id,
      key: {
        tenant: r.tenant,
        source: r.source,
        action: r.action,
        subject: r.subject,
        revision: Number(r.revision),
      },
      reason: r.reason as ReviewReason,
      since,
      ageMs: Math.max(0, q.now - Date.parse(since)),
      position: r.last_position,
      ...r.detail,
    };
  });
  const lastItem = items[items.length - 1];
  return {
    items,
    last: rows.length > q.limit && lastItem ? [lastItem.since, lastItem.operationId, lastItem.reason] : null,
  };
}

/** Count and oldest `since` per reason of a tenant's queue (optionally one action). */
export async function summarizeReviewQueue(
  sql: SqlQueryable,
  tenant: string,
  action?: string,
): Promise<ReviewSummary> {
  const f = new SqlFilter().add('tenant = ?', tenant).addIf('action = ?', action);
  const { rows } = await sql.query<{ reason: string; n: number; oldest: unknown }>(
    `select reason, count(*)::int as n, min(since) as oldest from ledger_rm_review_queue where ${f.where} group by reason order by reason`,
    f.params,
  );
  return Object.fromEntries(rows.map((r) => [r.reason, { count: Number(r.n), oldestSince: iso(r.oldest) }]));
}

/** Entries waiting and the oldest `since`, per tenant and reason, over every tenant's queue. */
export interface ReviewQueueDepth {
  readonly tenant: string;
  readonly reason: string;
  readonly items: number;
  /** The oldest entry's `since` (ISO 8601). */
  readonly oldestSince: string;
}

/** The {@link ReviewQueueDepth} of every (tenant, reason) with at least one entry. */
export async function reviewQueueDepths(sql: SqlQueryable): Promise<ReviewQueueDepth[]> {
  const { rows } = await sql.query<{ tenant: string; reason: string; items: number; oldest: unknown }>(
    `select tenant, reason, count(*)::int as items, min(since) as oldest from ledger_rm_review_queue group by tenant, reason`,
  );
  return rows.map((r) => ({
    tenant: r.tenant,
    reason: r.reason,
    items: Number(r.items),
    oldestSince: iso(r.oldest)!,
  }));
}
