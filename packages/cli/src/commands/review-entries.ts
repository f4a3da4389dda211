import type { ReviewItem } from '@operation-ledger/client';
import type { CommandContext } from '../context.js';

/** Options of `review` that select entries. */
export interface ReviewSelection {
  readonly reason?: ReviewItem['reason'];
  readonly action?: string;
  /** Only entries at least this old, ms. */
  readonly olderThanMs?: number;
  /** Entries at most (Infinity: all). */
  readonly max: number;
}

/**
 * The review queue, oldest first, following cursors; stops at `max` entries or at the first
 * entry younger than `olderThanMs` (the queue is sorted by age).
 */
export async function* reviewEntries(ctx: CommandContext, tenant: string, sel: ReviewSelection) {
  let cursor: string | undefined;
  let taken = 0;
  do {
    const page = await ctx.client.reports.reviewQueue(tenant, {
      reason: sel.reason,
      action: sel.action,
      limit: Math.min(500, Math.max(1, sel.max - taken)),
      cursor,
    });
    for (const item of page.items) {
      if (sel.olderThanMs !== undefined && item.ageMs < sel.olderThanMs) return;
      if (taken++ >= sel.max) return;
      yield { item, page };
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor && taken < sel.max);
}
