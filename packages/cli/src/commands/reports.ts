import type { Command } from 'commander';
import { examples, type Kit } from '../command-kit.js';
import { compact, keyText, table } from '../output/render.js';
import { oneOf, positiveInt, timeArg } from '../parse-options.js';
import { printFreshness } from './ops.js';

/** Counters by name. */
export type Counts = Record<string, number>;

/** Counters down, `total` and each action across: readable with many counters and few actions. */
export function countsTable(totals: Counts, byAction: Record<string, Counts>): string {
  const actions = Object.keys(byAction).sort();
  return table(
    ['COUNTER', 'TOTAL', ...actions],
    Object.keys(totals).map((c) => [c, totals[c] ?? 0, ...actions.map((a) => byAction[a]?.[c] ?? 0)]),
  );
}

/** One difference of a conflict's field-level diff, e.g. `changed /amount: 100 → 120`. */
export function diffLine(d: {
  path?: string;
  kind?: string;
  existing?: unknown;
  incoming?: unknown;
}): string {
  const path = d.path || '(whole payload)';
  if (d.kind === 'added') return `+ ${path}: ${compact(d.incoming, 40)}`;
  if (d.kind === 'removed') return `- ${path}: ${compact(d.existing, 40)}`;
  return `~ ${path}: ${compact(d.existing, 40)} → ${compact(d.incoming, 40)}`;
}

/** `ledger conflicts`, `ledger metrics`: the tenant reports (`ledger reconcile` is in reconcile.ts). */
export function registerReports(program: Command, kit: Kit): void {
  examples(
    program
      .command('conflicts')
      .description('payload conflicts (a key claimed again with a different payload) with the field diff')
      .option('--action <action>', 'only this action')
      .option('--since <time>', 'only conflicts at or after (ISO 8601, a date, or 2h ago)', timeArg)
      .option('--limit <n>', 'conflicts at most', positiveInt, 50),
    ['ledger conflicts --action invoice.create --since 1d', 'ledger conflicts --json | jq .diff'],
  ).action(
    kit.act(async (ctx, _args, o) => {
      const tenant = await ctx.tenant();
      const items: Record<string, unknown>[] = [];
      let page: Awaited<ReturnType<typeof ctx.client.reports.conflicts>> | undefined;
      let cursor: string | undefined;
      do {
        page = await ctx.client.reports.conflicts(tenant, {
          action: o.action,
          since: o.since,
          limit: Math.min(500, o.limit - items.length),
          cursor,
        });
        for (const item of page.items) {
          items.push(item);
          if (ctx.json) ctx.printJson(item);
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor && items.length < o.limit);
      if (ctx.json) return;
      ctx.print(
        table(
          ['AT', 'KEY', 'ATT', 'WORKER', 'FINGERPRINTS (existing / incoming)', 'DIFF'],
          items.map((c) => {
            const diff = (c.diff as Parameters<typeof diffLine>[0][] | null) ?? [];
            const lines = diff.map(diffLine);
            if (c.diffTruncated) lines.push('… (more differences)');
            return [
              c.at as string,
              keyText(c.key),
              c.attempt as number,
              c.workerId as string,
              `${String(c.existingFingerprint).slice(0, 12)}… / ${String(c.incomingFingerprint).slice(0, 12)}…`,
              lines.join('\n') || '(no diff kept)',
            ];
          }),
        ),
      );
      ctx.print(`${items.length} conflict(s) in ${tenant}`);
      printFreshness(ctx, page);
    }),
  );

  examples(
    program
      .command('metrics')
      .description('duplicate-prevention counters: totals, per action, and per minute/hour/day bucket')
      .option('--action <action>', 'only this action')
      .option('--from <time>', 'buckets from (inclusive)', timeArg)
      .option('--to <time>', 'buckets to (exclusive)', timeArg)
      .option(
        '--bucket <size>',
        'minute, hour or day (default day)',
        oneOf(['minute', 'hour', 'day'] as const),
      )
      .option('--buckets <n>', 'bucket rows to show', positiveInt, 24),
    ['ledger metrics', 'ledger metrics --bucket hour --from 1d --action invoice.create'],
  ).action(
    kit.act(async (ctx, _args, o) => {
      const tenant = await ctx.tenant();
      const m = await ctx.client.reports.metrics(tenant, {
        action: o.action,
        from: o.from,
        to: o.to,
        bucket: o.bucket,
        limit: o.buckets,
      });
      if (ctx.json) return ctx.printJson(m);
      ctx.print(countsTable(m.totals as Counts, m.byAction as Record<string, Counts>));
      const buckets =
        (m.buckets as { action: string; bucketStart: string; counters: Counts }[] | undefined) ?? [];
      if (buckets.length > 0) {
        const names = Object.keys(buckets[0]!.counters);
        ctx.print(
          table(
            ['BUCKET', 'ACTION', ...names],
            buckets.map((b) => [b.bucketStart, b.action, ...names.map((n) => b.counters[n] ?? 0)]),
          ),
        );
      }
      printFreshness(ctx, m);
    }),
  );
}
