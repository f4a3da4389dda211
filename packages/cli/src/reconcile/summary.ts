import {
  RECONCILIATION_CATEGORIES,
  type ReconciliationItem,
  type ReconciliationRun,
  type ReconciliationTotals,
} from '@operation-ledger/client';
import { compact, fields, formatAge, table } from '../output/render.js';

/** Every category of `totals`: the known ones in report order, then any the ledger added. */
function categoriesOf(totals: ReconciliationTotals): string[] {
  const extra = Object.keys(totals.byCategory).filter(
    (c) => !(RECONCILIATION_CATEGORIES as readonly string[]).includes(c),
  );
  return [...RECONCILIATION_CATEGORIES, ...extra];
}

/** Categories down; the total and each action across (zeros shown, so every category is listed). */
export function categoryTable(totals: ReconciliationTotals): string {
  const actions = Object.keys(totals.byAction).sort();
  return table(
    ['CATEGORY', 'TOTAL', ...actions],
    categoriesOf(totals).map((c) => [
      c,
      String(totals.byCategory[c] ?? 0),
      ...actions.map((a) => String(totals.byAction[a]?.[c] ?? 0)),
    ]),
  );
}

/** What the run wrote to the ledger (recorded duplicate effects, evidence applied…), or null. */
export function outcomesTable(totals: ReconciliationTotals): string | null {
  const rows = Object.entries(totals.outcomes).sort(([a], [b]) => a.localeCompare(b));
  return rows.length === 0
    ? null
    : table(
        ['OUTCOME', 'ITEMS'],
        rows.map(([o, n]) => [o, String(n)]),
      );
}

/** The non-zero categories in one cell: `matched 2, duplicate_effect 1, orphan 1`. */
export function totalsCell(run: ReconciliationRun): string {
  if (!run.totals) return run.status === 'failed' ? `failed: ${compact(run.error, 60)}` : '-';
  const parts = categoriesOf(run.totals)
    .filter((c) => (run.totals!.byCategory[c] ?? 0) > 0)
    .map((c) => `${c} ${run.totals!.byCategory[c]}`);
  return parts.join(', ') || 'no items';
}

/** `running (match 3000/5000)`, `awaiting_source`, `completed`. */
export function statusText(run: ReconciliationRun): string {
  if (run.status !== 'running' || !run.phase) return run.status;
  return `running (${run.phase} ${run.progress.done}/${run.progress.total})`;
}

/** The latest runs, newest first. */
export function runsTable(runs: readonly ReconciliationRun[]): string {
  return table(
    ['RUN', 'STATUS', 'ACTION', 'CREATED', 'BY', 'ROWS (dest / source)', 'TOTALS'],
    runs.map((r) => [
      r.id,
      statusText(r),
      r.action ?? '(all)',
      r.createdAt,
      r.createdBy,
      `${r.destinationRows} / ${r.sourceRows ?? '-'}`,
      totalsCell(r),
    ]),
  );
}

/** One run's settings and state, as a field | value table. */
export function runFields(run: ReconciliationRun): string {
  const window = run.from || run.to ? `${run.from ?? '…'} … ${run.to ?? '…'}` : 'every operation';
  return fields([
    ['run', run.id],
    ['status', statusText(run)],
    ['action', run.action ?? '(all)'],
    ['first seen', window],
    ['match', run.match],
    ['apply', run.apply],
    ['destination rows', run.destinationRows],
    ['source rows', run.sourceRows],
    ['created', `${run.createdAt} by ${run.createdBy}`],
    ['finished', run.finishedAt],
    ['checkpoint', run.checkpoint],
    ...(run.error ? ([['error', run.error]] as const) : []),
  ]);
}

/** Items as a table (the detail compacted). */
export function itemsTable(items: readonly ReconciliationItem[]): string {
  return table(
    ['SEQ', 'CATEGORY', 'OPERATION', 'SUBJECT', 'RECORD', 'REFERENCE', 'STATE', 'AGE', 'OUTCOME', 'DETAIL'],
    items.map((i) => [
      i.seq,
      i.category,
      i.operationId,
      i.subject,
      i.recordId,
      i.reference,
      i.state,
      i.ageMs === null ? null : formatAge(i.ageMs),
      i.outcome,
      Object.keys(i.detail).length > 0 ? compact(i.detail, 60) : null,
    ]),
  );
}
