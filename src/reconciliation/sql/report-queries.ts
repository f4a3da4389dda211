import type { ReconciliationItem } from '@operation-ledger/protocol';
import type { SqlQueryable } from '../../event-store/sql-executor.js';
import { CATEGORIES, type Category } from '../categories.js';

/** One item of a report, as the API and the CSV show it (the protocol's `ReconciliationItem`). */
export type ReportItem = ReconciliationItem;

/** Counts of a finished run: per category, per action and category, and per outcome of the writes. */
export interface ReportTotals {
  readonly items: number;
  readonly byCategory: Record<string, number>;
  readonly byAction: Record<string, Record<string, number>>;
  readonly outcomes: Record<string, number>;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

function toItem(r: Record<string, unknown>): ReportItem {
  return {
    seq: Number(r.seq),
    category: String(r.category) as Category,
    operationId: (r.operation_id as string | null) ?? null,
    action: (r.op_action as string | null) ?? null,
    subject: (r.subject as string | null) ?? null,
    recordId: (r.record_id as string | null) ?? null,
    reference: (r.reference as string | null) ?? null,
    line: num(r.line),
    state: (r.state as string | null) ?? null,
    destinationRef: (r.destination_ref as string | null) ?? null,
    firstSeen: iso(r.first_seen),
    ageMs: num(r.age_ms),
    outcome: (r.outcome as string | null) ?? null,
    detail: (r.detail as Record<string, unknown>) ?? {},
  };
}

/** One page of a run's items in `seq` order, after `afterSeq`, optionally of one category. */
export async function itemsPage(
  sql: SqlQueryable,
  id: string,
  filter: { readonly category?: string; readonly afterSeq?: number },
  limit: number,
): Promise<{ items: ReportItem[]; lastSeq: number | null }> {
  const { rows } = await sql.query(
    `select * from ledger_recon_items
      where recon_id = $1 and ($2::text is null or category = $2::text) and seq > $3
      order by seq limit $4`,
    [id, filter.category ?? null, filter.afterSeq ?? 0, limit + 1],
  );
  const items = rows.slice(0, limit).map(toItem);
  return { items, lastSeq: rows.length > limit ? items[items.length - 1]!.seq : null };
}

/** Items of a run still to be worked on in `applyState`, of `category`, in `seq` order. */
export async function itemsToWork(
  sql: SqlQueryable,
  id: string,
  category: string,
  applyState: 'compare' | 'pending',
  limit: number,
): Promise<(ReportItem & { source: string | null; revision: number | null })[]> {
  const { rows } = await sql.query(
    `select i.*, o.source, o.revision from ledger_recon_items i
       left join ledger_recon_operations o on o.recon_id = i.recon_id and o.operation_id = i.operation_id
      where i.recon_id = $1 and i.apply_state = $2 and i.category = $3
      order by i.seq limit $4`,
    [id, applyState, category, limit],
  );
  return rows.map((r) => ({
    ...toItem(r),
    source: (r.source as string | null) ?? null,
    revision: num(r.revision),
  }));
}

/** Records what was done about an item (and, after a field comparison, its category and detail). */
export async function finishItem(
  sql: SqlQueryable,
  id: string,
  seq: number,
  set: { outcome?: string | null; category?: string; detail?: Record<string, unknown> },
): Promise<void> {
  await sql.query(
    `update ledger_recon_items set apply_state = 'done', outcome = coalesce($3, outcome),
            category = coalesce($4, category), detail = coalesce($5::text::jsonb, detail)
      where recon_id = $1 and seq = $2`,
    [id, seq, set.outcome ?? null, set.category ?? null, set.detail ? JSON.stringify(set.detail) : null],
  );
}

/** Counts the items of a run (every category listed, zeros included). */
export async function countItems(sql: SqlQueryable, id: string): Promise<ReportTotals> {
  const { rows } = await sql.query<{
    category: string;
    action: string | null;
    outcome: string | null;
    n: number;
  }>(
    `select category, op_action as action, outcome, count(*)::int as n
       from ledger_recon_items where recon_id = $1 group by 1, 2, 3`,
    [id],
  );
  const zero = () => Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<string, number>;
  const totals: ReportTotals = { items: 0, byCategory: zero(), byAction: {}, outcomes: {} };
  for (const r of rows) {
    const n = Number(r.n);
    (totals as { items: number }).items += n;
    totals.byCategory[r.category] = (totals.byCategory[r.category] ?? 0) + n;
    const action = (totals.byAction[r.action ?? '(none)'] ??= zero());
    action[r.category] = (action[r.category] ?? 0) + n;
    if (r.outcome) totals.outcomes[r.outcome] = (totals.outcomes[r.outcome] ?? 0) + n;
  }
  return totals;
}

/** Stores the totals and completes a held run. False when the lease was lost meanwhile. */
export async function completeRun(
  sql: SqlQueryable,
  id: string,
  holder: string,
  totals: ReportTotals,
  checkpoint: string,
): Promise<boolean> {
  const { rows } = await sql.query(
    `update ledger_reconciliations set status = 'completed', phase = null, totals = $3::text::jsonb,
            checkpoint = $4, finished_at = now(), heartbeat_at = now(), holder = null
      where id = $1 and holder = $2 and status = 'running' returning id`,
    [id, holder, JSON.stringify(totals), checkpoint],
  );
  return rows.length === 1;
}

/** Stores the snapshot's checkpoint on the run. */
export async function recordCheckpoint(sql: SqlQueryable, id: string, checkpoint: string): Promise<void> {
  await sql.query('update ledger_reconciliations set checkpoint = $2 where id = $1', [id, checkpoint]);
}
