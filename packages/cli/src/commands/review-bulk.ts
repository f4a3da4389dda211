import type { ReviewItem } from '@operation-ledger/client';
import type { CommandContext } from '../context.js';
import { describeError, EXIT, exitCodeOf, RefusedError, UsageError } from '../exit-codes.js';
import { startProgress } from '../output/progress.js';
import { formatAge, keyText, table } from '../output/render.js';
import { reviewEntries, type ReviewSelection } from './review-entries.js';

/** The state each resolution leads to (docs/api.md "Recovery and operator workflows"). */
const NEXT_STATE = { not_found: 'released', abandoned: 'abandoned' } as const;

/**
 * `review … --resolve not_found|abandoned`: shows the selection, asks unless `--yes`, resolves one
 * at a time; one settled meanwhile is refused by the ledger and reported, never forced.
 * @returns 0 when every resolution was recorded; 1 when any was refused.
 * @throws RefusedError when not confirmed; UsageError when `--yes` is missing and nobody can answer.
 */
export async function bulkResolve(
  ctx: CommandContext,
  tenant: string,
  sel: ReviewSelection,
  action: { resolution: 'not_found' | 'abandoned'; reason: string; dryRun?: boolean; yes?: boolean },
): Promise<number> {
  const items: ReviewItem[] = [];
  for await (const { item } of reviewEntries(ctx, tenant, sel)) items.push(item);
  const next = NEXT_STATE[action.resolution];
  if (action.dryRun) {
    if (ctx.json) {
      for (const i of items)
        ctx.printJson({
          operationId: i.operationId,
          key: i.key,
          ageMs: i.ageMs,
          from: 'unknown',
          to: next,
          dryRun: true,
        });
    } else {
      ctx.print(
        table(
          ['OPERATION', 'KEY', 'AGE', 'CHANGE'],
          items.map((i) => [i.operationId, keyText(i.key), formatAge(i.ageMs), `unknown → ${next}`]),
        ),
      );
      ctx.print(
        `dry run: ${items.length} operation(s) would be resolved ${action.resolution}; nothing was changed`,
      );
    }
    return EXIT.ok;
  }
  if (items.length === 0) {
    ctx.note('nothing to resolve: no unknown outcome matches');
    return EXIT.ok;
  }
  if (!action.yes) {
    const question = `Resolve ${items.length} unknown operation(s) in ${tenant} as ${action.resolution} (→ ${next})?`;
    if (!(await ctx.confirm(question)))
      throw new RefusedError('not confirmed: nothing was changed (pass --yes to skip the question)');
  }
  const progress = startProgress(ctx.io.stderr, {
    total: items.length,
    label: 'resolving',
    enabled: ctx.progress,
  });
  let refused = 0;
  const results: string[][] = [];
  try {
    for (const item of items) {
      ctx.io.signal?.throwIfAborted();
      try {
        const answer = await ctx.client.operator.resolve(item.operationId, {
          resolution: action.resolution,
          reason: action.reason,
        });
        if (ctx.json) ctx.printJson({ operationId: item.operationId, ok: true, state: answer.state });
        results.push([item.operationId, keyText(item.key), answer.state, 'resolved']);
      } catch (err) {
        if (exitCodeOf(err) === EXIT.unavailable || err instanceof UsageError) throw err;
        refused++;
        const code = (err as { code?: string }).code ?? 'error';
        if (ctx.json)
          ctx.printJson({ operationId: item.operationId, ok: false, code, error: describeError(err) });
        results.push([item.operationId, keyText(item.key), '-', `refused: ${describeError(err)}`]);
      }
      progress.increment();
    }
  } finally {
    progress.stop();
  }
  if (!ctx.json) {
    ctx.print(table(['OPERATION', 'KEY', 'STATE', 'RESULT'], results));
    ctx.print(`${items.length - refused} resolved ${action.resolution}, ${refused} refused`);
  }
  return refused > 0 ? EXIT.refused : EXIT.ok;
}
