import type { SqlQueryable } from '../../event-store/sql-executor.js';
import { iso, SqlFilter } from '../core/sql-values.js';

/**
 * Reconciliation categories (exclusive; every source operation is in exactly one):
 * `confirmed_with_ref`, `confirmed_without_ref`, `unknown`, `failed` (final), `failed_retryable`
 * (a retry may still come), `in_progress`, `abandoned`, `released`, `other` (approval states).
 * Duplicate effects are counted on top (an operation with one is also in its state's category).
 */
export const RECONCILIATION_CATEGORIES = [
  'confirmed_with_ref',
  'confirmed_without_ref',
  'unknown',
  'failed',
  'failed_retryable',
  'in_progress',
  'abandoned',
  'released',
  'other',
] as const;

const CATEGORY_SQL = `case
  when state = 'confirmed' and destination_ref is not null then 'confirmed_with_ref'
  when state = 'confirmed' then 'confirmed_without_ref'
  when state = 'unknown' then 'unknown'
  when state = 'failed' and retryable is true then 'failed_retryable'
  when state = 'failed' then 'failed'
  when state = 'in_progress' then 'in_progress'
  when state = 'abandoned' then 'abandoned'
  when state = 'released' then 'released'
  else 'other' end`;

/** A tenant, optional action and `[from, to)` range of first-seen times (ISO 8601). */
export interface ReconciliationScope {
  readonly tenant: string;
  readonly action?: string;
  readonly from?: string;
  readonly to?: string;
}

/** Counts of one scope: source operations, per category, and duplicate effects. */
export interface ReconciliationCounts {
  sourceOperations: number;
  /** Operations with at least one duplicate effect, and the number of extra effects. */
  duplicateEffectOperations: number;
  duplicateEffects: number;
  byCategory: Record<string, number>;
}

/** One operation line of the report. */
export interface ReconciliationLine {
  readonly operationId: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
  readonly revision: number;
  readonly category: string;
  readonly state: string;
  readonly destinationRef: string | null;
  readonly duplicateEffects: number;
  readonly attempts: number;
  readonly firstSeen: string;
  readonly lastChange: string;
}

function scopeFilter(s: ReconciliationScope): SqlFilter {
  return new SqlFilter()
    .add('tenant = ?', s.tenant)
    .addIf('action = ?', s.action)
    .addIf('first_seen >= ?::timestamptz', s.from)
    .addIf('first_seen < ?::timestamptz', s.to);
}

function emptyCounts(): ReconciliationCounts {
  const byCategory = Object.fromEntries(RECONCILIATION_CATEGORIES.map((c) => [c, 0]));
  return { sourceOperations: 0, duplicateEffectOperations: 0, duplicateEffects: 0, byCategory };
}

/** Totals of the scope, overall and per action (from the status view). */
export async function reconcile(
  sql: SqlQueryable,
  scope: ReconciliationScope,
): Promise<{ totals: ReconciliationCounts; byAction: Record<string, ReconciliationCounts> }> {
  const f = scopeFilter(scope);
  const { rows } = await sql.query<{
    action: string;
    category: string;
    n: number;
    dup_ops: number;
    dups: number;
  }>(
    `select action, ${CATEGORY_SQL} as category, count(*)::int as n,
            count(*) filter (where duplicate_effects > 0)::int as dup_ops, coalesce(sum(duplicate_effects), 0)::int as dups
       from ledger_rm_operations where ${f.where} group by 1, 2 order by 1, 2`,
    f.params,
  );
  const totals = emptyCounts();
  const byAction: Record<string, ReconciliationCounts> = {};
  for (const r of rows) {
    for (const c of [totals, (byAction[r.action] ??= emptyCounts())]) {
      c.sourceOperations += Number(r.n);
      c.byCategory[r.category] = (c.byCategory[r.category] ?? 0) + Number(r.n);
      c.duplicateEffectOperations += Number(r.dup_ops);
      c.duplicateEffects += Number(r.dups);
    }
  }
  return { totals, byAction };
}

/** One page of the scope's operations, by first-seen time then id; `after` = `[firstSeen, operationId]`. */
export async function reconciliationLines(
  sql: SqlQueryable,
  scope: ReconciliationScope,
  limit: number,
  after?: readonly string[],
): Promise<{ lines: ReconciliationLine[]; last: string[] | null }> {
  const f = scopeFilter(scope);
  if (after) f.add('(first_seen, operation_id) > (?::timestamptz, ?::uuid)', ...after);
  const { rows } = await sql.query<Record<string, unknown>>(
    `select operation_id::text as operation_id, source, action, subject, revision, ${CATEGORY_SQL} as category, state,
            destination_ref, duplicate_effects, attempt, first_seen, last_change
       from ledger_rm_operations where ${f.where}
      order by ledger_rm_operations.first_seen, ledger_rm_operations.operation_id limit ${f.param(limit + 1)}`,
    f.params,
  );
  const lines = rows.slice(0, limit).map((r) => ({
    operationId: String(r.operation_id),
    source: String(r.source),
    action: String(r.action),
    subject: String(r.subject),
    revision: Number(r.revision),
    category: String(r.category),
    state: String(r.state),
    destinationRef: (r.destination_ref as string | null) ?? null,
    duplicateEffects: Number(r.duplicate_effects),
    attempts: Number(r.attempt),
    firstSeen: iso(r.first_seen)!,
    lastChange: iso(r.last_change)!,
  }));
  const last = lines[lines.length - 1];
  return { lines, last: rows.length > limit && last ? [last.firstSeen, last.operationId] : null };
}
