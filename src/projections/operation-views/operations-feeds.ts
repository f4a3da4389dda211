import type { SqlQueryable } from '../../event-store/sql-executor.js';
import type { StoredChange } from '../core/read-model.js';
import { restoreFold } from './operation-fold.js';
import { reviewItems } from './review-items.js';
import { presentStatusRow, type StatusRow } from './status-row.js';
import { STATUS_SELECT, statusRowFromDb } from './status-queries.js';

/** Feed of status changes: each status row changed after a position, as the REST row shows it. */
export const OPERATIONS_FEED = 'operations';
/** Feed of review-queue changes: each operation whose review entries changed after a position. */
export const REVIEW_FEED = 'review-queue';

/** The status feed of `tenant` after `after`: one `operation` entry per changed row, oldest first. */
export async function readStatusFeed(
  sql: SqlQueryable,
  tenant: string,
  after: bigint,
  limit: number,
): Promise<StoredChange[]> {
  const { rows } = await sql.query<StatusRow & { last_event: string | null }>(
    `select ${STATUS_SELECT}, last_event from ledger_rm_operations
      where tenant = $1 and last_position > $2::text::bigint
      order by ledger_rm_operations.last_position limit $3`,
    [tenant, after.toString(), limit],
  );
  return rows.map((r) => ({
    feed: OPERATIONS_FEED,
    tenant,
    position: BigInt(r.last_position),
    type: 'operation',
    data: { event: r.last_event, ...presentStatusRow(statusRowFromDb(r)) },
  }));
}

/**
 * The review feed of `tenant` after `after`: one `review` entry per operation whose entries
 * changed (`added`, `removed` or `updated`, with its reasons before and now), oldest first.
 */
export async function readReviewFeed(
  sql: SqlQueryable,
  tenant: string,
  after: bigint,
  limit: number,
): Promise<StoredChange[]> {
  const { rows } = await sql.query<StatusRow & { review_position: string; review_previous: string[] | null }>(
    `select ${STATUS_SELECT}, review_position::text as review_position, review_previous
       from ledger_rm_operations
      where tenant = $1 and review_position > $2::text::bigint and review_position is not null
      order by ledger_rm_operations.review_position limit $3`,
    [tenant, after.toString(), limit],
  );
  return rows.map((r) => {
    const row = statusRowFromDb(r);
    const items = reviewItems(restoreFold(row.fold));
    const previous = r.review_previous ?? [];
    const shown = presentStatusRow(row);
    return {
      feed: REVIEW_FEED,
      tenant,
      position: BigInt(r.review_position),
      type: 'review',
      data: {
        operationId: row.operation_id,
        key: shown.key,
        state: row.state,
        change: previous.length === 0 ? 'added' : items.length === 0 ? 'removed' : 'updated',
        reasons: items.map((i) => i.reason),
        previousReasons: previous,
        items: items.map((i) => ({ reason: i.reason, since: i.since, ...i.detail })),
      },
    };
  });
}
