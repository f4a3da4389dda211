import type { SqlQueryable } from '../../event-store/sql-executor.js';
import { iso, SqlFilter } from '../core/sql-values.js';
import { COUNTERS, presentCounters } from './metric-counters.js';
import type { BucketKind } from './metrics-read-model.js';

/** Scope of a metrics query: tenant, bucket size, optional action and `[from, to)` on bucket start. */
export interface MetricsScope {
  readonly tenant: string;
  readonly bucket: BucketKind;
  readonly action?: string;
  readonly from?: string;
  readonly to?: string;
}

function scopeFilter(s: MetricsScope): SqlFilter {
  return new SqlFilter()
    .add('tenant = ?', s.tenant)
    .add('bucket = ?', s.bucket)
    .addIf('action = ?', s.action)
    .addIf('bucket_start >= ?::timestamptz', s.from)
    .addIf('bucket_start < ?::timestamptz', s.to);
}

const SUMS = COUNTERS.map((c) => `coalesce(sum(${c}), 0)::text as ${c}`).join(', ');

/** Totals of the scope, overall and per action (camelCase counters). */
export async function metricsTotals(
  sql: SqlQueryable,
  scope: MetricsScope,
): Promise<{ totals: Record<string, number>; byAction: Record<string, Record<string, number>> }> {
  const f = scopeFilter(scope);
  const { rows } = await sql.query<Record<string, string>>(
    `select action, ${SUMS} from ledger_rm_metrics where ${f.where} group by action order by action`,
    f.params,
  );
  const byAction = Object.fromEntries(rows.map((r) => [r.action!, presentCounters(r)]));
  const totals = presentCounters(
    Object.fromEntries(COUNTERS.map((c) => [c, rows.reduce((sum, r) => sum + Number(r[c] ?? 0), 0)])),
  );
  return { totals, byAction };
}

/** One page of buckets, newest first then by action; `after` = `[bucketStart, action]`. */
export async function metricsBuckets(
  sql: SqlQueryable,
  scope: MetricsScope,
  limit: number,
  after?: readonly string[],
): Promise<{
  buckets: { action: string; bucketStart: string; counters: Record<string, number> }[];
  last: string[] | null;
}> {
  const f = scopeFilter(scope);
  if (after)
    f.add(
      '(bucket_start < ?::timestamptz or (bucket_start = ?::timestamptz and action > ?))',
      after[0],
      after[0],
      after[1],
    );
  const { rows } = await sql.query<Record<string, unknown>>(
    `select action, bucket_start, ${COUNTERS.map((c) => `${c}::text as ${c}`).join(', ')}
       from ledger_rm_metrics where ${f.where}
      order by bucket_start desc, action limit ${f.param(limit + 1)}`,
    f.params,
  );
  const buckets = rows.slice(0, limit).map((r) => ({
    action: String(r.action),
    bucketStart: iso(r.bucket_start)!,
    counters: presentCounters(r),
  }));
  const last = buckets[buckets.length - 1];
  return { buckets, last: rows.length > limit && last ? [last.bucketStart, last.action] : null };
}

/** Totals of every tenant and action over all day buckets (for Prometheus), snake_case counters. */
export async function allTotals(sql: SqlQueryable): Promise<Record<string, string>[]> {
  const { rows } = await sql.query<Record<string, string>>(
    `select tenant, action, ${SUMS} from ledger_rm_metrics where bucket = 'day' group by tenant, action`,
  );
  return rows;
}
