import type { ReconciliationRun } from '@operation-ledger/client';
import type { CommandContext } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { categoryTable, outcomesTable, runFields } from './summary.js';

/**
 * Prints a run: its settings, then — once completed — the items per category (total and per
 * action) and what it wrote to the ledger; `--json` the run as one line.
 * @returns EXIT.ok; EXIT.refused for a failed run (its error on stderr), or when it found an item
 *   of a category in `failOn` (`--fail-on`; the categories found are named on stderr).
 */
export function printRun(
  ctx: CommandContext,
  run: ReconciliationRun,
  failOn: readonly string[] = [],
): number {
  if (ctx.json) ctx.printJson(run);
  else {
    ctx.print(runFields(run));
    if (run.totals) {
      ctx.print(categoryTable(run.totals));
      const outcomes = outcomesTable(run.totals);
      if (outcomes) ctx.print(outcomes);
      ctx.print(`${run.totals.items} item(s): ledger reconcile items ${run.id} [--category …] [--csv file]`);
    }
  }
  if (run.status !== 'failed') {
    const found = failOn.filter((c) => (run.totals?.byCategory[c] ?? 0) > 0);
    if (found.length === 0) return EXIT.ok;
    ctx.note(
      `reconciliation ${run.id} found ${found.map((c) => `${c} ${run.totals!.byCategory[c]}`).join(', ')} (--fail-on)`,
    );
    return EXIT.refused;
  }
  ctx.note(`reconciliation ${run.id} failed: ${run.error ?? 'no reason recorded'}`);
  return EXIT.refused;
}
