import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import {
  RECONCILIATION_CATEGORIES,
  type ReconciliationCategory,
  type ReconciliationItem,
} from '@operation-ledger/client';
import type { Command } from 'commander';
import { examples, type Kit } from '../command-kit.js';
import type { CommandContext } from '../context.js';
import { oneOf, positiveInt } from '../parse-options.js';
import { itemsTable, runsTable } from '../reconcile/summary.js';
import { printRun } from '../reconcile/print-run.js';

const api = (ctx: CommandContext) => ctx.client.reconciliation;

/** `ledger reconcile list|show|items`: the tenant's runs and their reports. */
export function registerReconcileRuns(reconcile: Command, kit: Kit): void {
  examples(
    reconcile
      .command('list')
      .description('the latest reconciliations of the tenant, newest first, with their totals')
      .option('--limit <n>', 'runs at most (up to 100)', positiveInt, 20),
    ['ledger reconcile list', 'ledger reconcile list --json | jq -r .id'],
  ).action(
    kit.act(async (ctx, _args, o) => {
      const tenant = await ctx.tenant();
      const { items } = await api(ctx).list(tenant, { limit: Math.min(100, o.limit) });
      if (ctx.json) return items.forEach((r) => ctx.printJson(r));
      ctx.print(runsTable(items));
      ctx.print(`${items.length} reconciliation(s) in ${tenant}`);
    }),
  );

  examples(
    reconcile
      .command('show <run>')
      .description(
        'one reconciliation: status and progress, and its totals once completed (exit 1 if it failed)',
      )
      .option('--wait', 'poll until it is completed or failed'),
    ['ledger reconcile show 0b6f…', 'ledger reconcile show 0b6f… --wait --json | jq .totals'],
  ).action(
    kit.act(async (ctx, [id], o) => {
      const tenant = await ctx.tenant();
      const run = o.wait
        ? await api(ctx).wait(tenant, id!, { signal: ctx.io.signal })
        : await api(ctx).get(tenant, id!);
      return printRun(ctx, run);
    }),
  );

  examples(
    reconcile
      .command('items <run>')
      .description("a completed reconciliation's items, or all of them as CSV (streamed)")
      .option(
        '--category <category>',
        `only this one: ${RECONCILIATION_CATEGORIES.join(', ')}`,
        oneOf(RECONCILIATION_CATEGORIES),
      )
      .option('--limit <n>', 'items at most', positiveInt, 50)
      .option('--all', 'every item (ignores --limit)')
      .option('--csv <file>', 'every item (of the category) as CSV to this file, - for stdout'),
    [
      'ledger reconcile items 0b6f… --category duplicate_effect',
      'ledger reconcile items 0b6f… --csv report.csv',
      'ledger reconcile items 0b6f… --category orphan --all --json | jq -r .recordId',
    ],
  ).action(
    kit.act(async (ctx, [id], o) => {
      const tenant = await ctx.tenant();
      if (o.csv) return downloadItemsCsv(ctx, tenant, id!, o.category, o.csv);
      const items: ReconciliationItem[] = [];
      const max = o.all ? Infinity : (o.limit as number);
      let cursor: string | undefined;
      do {
        const limit = Math.min(500, Math.max(1, max - items.length));
        const page = await api(ctx).items(tenant, id!, { category: o.category, limit, cursor });
        for (const item of page.items.slice(0, max - items.length)) {
          if (ctx.json) ctx.printJson(item);
          items.push(item);
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor && items.length < max);
      if (ctx.json) return;
      ctx.print(itemsTable(items));
      ctx.print(`${items.length} item(s)${cursor ? ' (more: --all, or --csv for every one)' : ''}`);
    }),
  );
}

/** Streams the items CSV to `file` (`-`: stdout) without holding it in memory. */
async function downloadItemsCsv(
  ctx: CommandContext,
  tenant: string,
  id: string,
  category: ReconciliationCategory | undefined,
  file: string,
): Promise<void> {
  const body = await api(ctx).itemsCsv(tenant, id, { category, signal: ctx.io.signal });
  const source = Readable.fromWeb(body as WebReadableStream<Uint8Array>);
  if (file === '-') {
    source.setEncoding('utf8'); // decodes characters split across chunks
    for await (const text of source) ctx.io.stdout.write(text as string);
    return;
  }
  await pipeline(source, createWriteStream(ctx.path(file)));
  ctx.note(`items written to ${file}`);
}
