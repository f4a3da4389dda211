import type { Command } from 'commander';
import { REVIEW_REASONS } from '@operation-ledger/protocol';
import type { ReviewItem } from '@operation-ledger/client';
import { examples, type Kit } from '../command-kit.js';
import { UsageError } from '../exit-codes.js';
import { compact, formatAge, keyText, table } from '../output/render.js';
import { durationMs, oneOf, pick, positiveInt } from '../parse-options.js';
import { printFreshness } from './ops.js';
import { bulkResolve } from './review-bulk.js';
import { reviewEntries, type ReviewSelection } from './review-entries.js';
import { watchFeed } from './watch.js';

/** The review-queue reasons `--reason` takes; `unknown` is accepted for `unknown_outcome`. */
const REASON_CHOICES = [...REVIEW_REASONS, 'unknown'] as const;

/** `ledger review`: the queue, its live tail (`--watch`), and bulk resolution (`--resolve`). */
export function registerReview(program: Command, kit: Kit): void {
  examples(
    program
      .command('review')
      .description(
        'operations awaiting a human, oldest first, with age; with --resolve, resolve the unknown ones selected',
      )
      .option('--reason <reason>', `filter: ${REASON_CHOICES.join(', ')}`)
      .option('--action <action>', 'only this action')
      .option('--older-than <age>', 'only entries at least this old (90s, 15m, 1h, 2d)', durationMs)
      .option('--limit <n>', 'entries at most', positiveInt, 50)
      .option('--all', 'every entry (ignores --limit)')
      .option('--watch', 'tail the queue live (entries added, updated, removed) instead of listing it')
      .option(
        '--resolve <resolution>',
        'bulk: resolve every selected unknown outcome as not_found or abandoned',
        oneOf(['not_found', 'abandoned', 'confirmed'] as const),
      )
      .option('--note <text>', 'with --resolve: why — recorded with each resolution (required)')
      .option('--dry-run', 'with --resolve: show what would change, change nothing')
      .option('-y, --yes', 'with --resolve: do not ask for confirmation'),
    [
      'ledger review --reason unknown --older-than 1h',
      'ledger review --watch',
      'ledger review --older-than 1h --resolve not_found --note "INC-42: billing has no such invoices" --dry-run',
      'ledger review --older-than 1h --resolve not_found --note "INC-42: billing has no such invoices" --yes',
    ],
  ).action(
    kit.act(async (ctx, _args, o) => {
      const tenant = await ctx.tenant();
      const bulk = o.resolve !== undefined;
      let reason: ReviewItem['reason'] | undefined;
      if (bulk) {
        if (o.resolve === 'confirmed')
          throw new UsageError(
            '--resolve confirmed needs one reference per operation: use `ledger resolve <id> confirmed --ref R`',
          );
        if (o.reason !== undefined && !['unknown', 'unknown_outcome'].includes(o.reason))
          throw new UsageError(
            '--resolve acts on unknown outcomes only; --reason is a filter — give the recorded text with --note "why"',
          );
        if (!o.note)
          throw new UsageError('--resolve needs --note "why" (it is recorded with each resolution)');
        reason = 'unknown_outcome';
      } else if (o.note !== undefined) {
        throw new UsageError('--note is the text recorded by --resolve');
      } else if (o.reason !== undefined) {
        reason = pick(o.reason, REASON_CHOICES, '--reason') === 'unknown' ? 'unknown_outcome' : o.reason;
      }
      if (o.watch) {
        return watchFeed(ctx, 'review-queue', { reason, action: o.action }, {}, (d) => [
          String(d.change ?? ''),
          ((d.reasons as string[] | undefined) ?? []).join(',') || '-',
          String(d.state ?? ''),
          keyText(d.key),
          String(d.operationId ?? ''),
        ]);
      }
      const sel: ReviewSelection = {
        reason,
        action: o.action,
        olderThanMs: o.olderThan,
        max: o.all ? Infinity : o.limit,
      };
      if (bulk)
        return bulkResolve(ctx, tenant, sel, {
          resolution: o.resolve,
          reason: o.note,
          dryRun: o.dryRun,
          yes: o.yes,
        });
      const items: ReviewItem[] = [];
      let page: { checkpoint?: unknown; lag?: unknown; summary?: unknown } | undefined;
      for await (const entry of reviewEntries(ctx, tenant, sel)) {
        if (ctx.json) ctx.printJson(entry.item);
        items.push(entry.item);
        page = entry.page;
      }
      if (ctx.json) return;
      ctx.print(reviewTable(items));
      ctx.print(`${items.length} entr${items.length === 1 ? 'y' : 'ies'} in ${tenant}`);
      printFreshness(ctx, page);
    }),
  );
}

/** The queue as a table: operation, key, reason, age, since, what is open. */
export function reviewTable(items: readonly ReviewItem[]): string {
  return table(
    ['OPERATION', 'KEY', 'REASON', 'AGE', 'SINCE', 'DETAIL'],
    items.map((i) => [i.operationId, keyText(i.key), i.reason, formatAge(i.ageMs), i.since, detailOf(i)]),
  );
}

function detailOf(i: ReviewItem): string {
  if (i.reason === 'unknown_outcome') {
    const why = i.unknownCause ? `${i.unknownCause}${i.unknownDetail ? `: ${i.unknownDetail}` : ''}` : '';
    const started = i.startedSteps?.length ? `started: ${i.startedSteps.map((s) => s.step).join(', ')}` : '';
    return compact([why, started].filter(Boolean).join(' — ') || null, 60);
  }
  if (i.startedSteps?.length) return `started: ${i.startedSteps.map((s) => s.step).join(', ')}`;
  const err = i.lastError as { code?: string; message?: string } | undefined;
  if (err) return compact(`${err.code}: ${err.message}`, 60);
  return compact(i.refs ?? i.detail ?? null, 60);
}
