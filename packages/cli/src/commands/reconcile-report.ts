import type { CommandContext } from '../context.js';
import { printFreshness } from './ops.js';
import { exportReconciliationCsv } from './reconcile-csv.js';
import { countsTable, type Counts } from './reports.js';

/**
 * The report form of `ledger reconcile` (no `--destination`): the outcomes of the operations
 * first seen in `[from, to)` per action (`GET /v1/tenants/{tenant}/reconciliation`), and with
 * `csv` every line exported to that file (`-`: stdout only), streamed.
 */
export async function printReconciliationReport(
  ctx: CommandContext,
  o: { action: string; from: string; to: string; csv?: string },
): Promise<void> {
  const tenant = await ctx.tenant();
  const filter = { action: o.action, from: o.from, to: o.to };
  if (o.csv === '-') return exportReconciliationCsv(ctx, tenant, filter, '-');
  const r = await ctx.client.reports.outcomes(tenant, { ...filter, limit: 1 });
  if (o.csv) await exportReconciliationCsv(ctx, tenant, filter, ctx.path(o.csv));
  if (ctx.json) {
    const { items: _items, nextCursor: _next, ...summary } = r;
    return ctx.printJson(summary);
  }
  ctx.print(`${r.tenant} ${r.action ?? ''} first seen ${r.from} … ${r.to}`);
  ctx.print(countsTable(r.totals as Counts, r.byAction as Record<string, Counts>));
  if (o.csv) ctx.print(`every line written to ${o.csv}`);
  printFreshness(ctx, r);
}
