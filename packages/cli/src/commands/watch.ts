import type { Feed } from '@operation-ledger/client';
import type { CommandContext } from '../context.js';

/**
 * Tails a tenant feed (SSE) until `count` changes, Ctrl-C, or the stream gives up; `after`
 * resumes from an id an earlier run printed.
 */
export async function watchFeed(
  ctx: CommandContext,
  feed: Feed,
  filter: Record<string, string | undefined>,
  options: { after?: string; count?: number },
  columns: (data: Record<string, unknown>) => string[],
): Promise<void> {
  const tenant = await ctx.tenant();
  const local = new AbortController();
  const signal = ctx.io.signal ? AbortSignal.any([ctx.io.signal, local.signal]) : local.signal;
  let seen = 0;
  try {
    for await (const e of ctx.client.reports.subscribe(
      feed,
      { tenant, ...filter },
      { lastEventId: options.after, signal },
    )) {
      if (e.event === 'ready') {
        if (!ctx.json)
          ctx.note(`watching ${feed} of ${tenant} from checkpoint ${e.data.checkpoint} (Ctrl-C to stop)`);
        continue;
      }
      if (e.event === 'reset') {
        ctx.note(
          `the feed was reset (${String(e.data.reason)}): changes before ${e.data.checkpoint} are not kept`,
        );
        continue;
      }
      if (ctx.json) ctx.printJson({ id: e.id, event: e.event, data: e.data });
      else ctx.print([new Date().toISOString(), e.id ?? '-', ...columns(e.data)].join('  '));
      if (options.count !== undefined && ++seen >= options.count) break;
    }
  } finally {
    local.abort();
  }
}
