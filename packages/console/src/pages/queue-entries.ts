import type { ReviewItem, ReviewReason } from '@operation-ledger/protocol';
import type { KeyParts } from '../format.js';

/** One review-queue entry (GET …/review-queue item, or built from a `review` SSE change). */
export type QueueEntry = Pick<
  ReviewItem,
  'operationId' | 'key' | 'reason' | 'since' | 'startedSteps' | 'unknownCause' | 'unknownDetail'
> & { readonly [detail: string]: unknown };

/** A `review` change of the review-queue feed (operations read model). */
export interface ReviewChange {
  readonly operationId: string;
  readonly key: KeyParts;
  readonly change: 'added' | 'updated' | 'removed';
  readonly items: readonly ({ reason: ReviewReason; since: string } & Record<string, unknown>)[];
}

const order = (a: QueueEntry, b: QueueEntry) =>
  a.since < b.since
    ? -1
    : a.since > b.since
      ? 1
      : a.operationId < b.operationId
        ? -1
        : a.operationId > b.operationId
          ? 1
          : a.reason.localeCompare(b.reason);

/**
 * The entries after a `review` change: the operation's entries are replaced by the change's
 * items (so applying the same change twice is harmless), oldest first like the server. Entries
 * past the last loaded one are left for "load more" when more pages exist (`complete` false).
 */
export function applyReviewChange(
  entries: readonly QueueEntry[],
  change: ReviewChange,
  keep: (entry: QueueEntry) => boolean,
  complete: boolean,
): QueueEntry[] {
  const last = entries[entries.length - 1];
  const rest = entries.filter((e) => e.operationId !== change.operationId);
  const added = change.items
    .map((item): QueueEntry => ({ ...item, operationId: change.operationId, key: change.key }))
    .filter(keep)
    .filter((e) => complete || !last || order(e, last) <= 0);
  return [...rest, ...added].sort(order);
}

/**
 * A short description of an entry's detail: the started steps and provider keys (the why of an
 * unknown outcome is shown beside it, see {@link unknownCauseOf}), the error, the refs.
 */
export function entryDetail(e: QueueEntry): string {
  switch (e.reason) {
    case 'unknown_outcome': {
      const steps = e.startedSteps ?? [];
      const started = steps.map((s) => `${s.step} (key ${s.providerIdempotencyKey})`).join(', ');
      return started ? `started: ${started}` : '';
    }
    case 'final_failure': {
      const err = e.error as { code?: string; message?: string } | null | undefined;
      return err ? `${err.code ?? 'error'}: ${err.message ?? ''}` : 'failed';
    }
    case 'duplicate_effect': {
      const dups = (e.duplicates as { ref: string }[] | undefined) ?? [];
      return `recorded ${String(e.recordedRef ?? '—')}, also ${dups.map((d) => d.ref).join(', ')}`;
    }
    case 'awaiting_approval':
      return `first claim, attempt ${String(e.attempt ?? 1)}`;
    default:
      return '';
  }
}

/** The true label of an unknown outcome entry (derived from `unknownReason` for an older ledger). */
export function unknownCauseOf(e: QueueEntry): string {
  if (typeof e.unknownCause === 'string') return e.unknownCause;
  return e.unknownReason === 'lease_expired' ? 'lease_expired_after_step' : 'reported_by_worker';
}
