import type { RecordedEvent } from '../../event-store/event-store.port.js';
import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';
import type { FeedChange, ReadModel, StoredChange, TableNames } from '../core/read-model.js';
import { type Column, upsertRows } from '../core/sql-rows.js';
import { stableJson } from '../core/stable-json.js';
import {
  foldEvent,
  isAuditEvent,
  isOperationEvent,
  type OperationFold,
  restoreFold,
} from './operation-fold.js';
import { type ReviewItem, reviewItems } from './review-items.js';
import { OPERATIONS_FEED, readReviewFeed, readStatusFeed, REVIEW_FEED } from './operations-feeds.js';
import { type StatusRow, statusRow } from './status-row.js';

export { OPERATIONS_FEED, REVIEW_FEED } from './operations-feeds.js';

const STATUS_COLUMNS: readonly Column[] = [
  { name: 'operation_id', type: 'uuid' },
  { name: 'tenant', type: 'text' },
  { name: 'source', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'subject', type: 'text' },
  { name: 'revision', type: 'integer' },
  { name: 'state', type: 'text' },
  { name: 'retryable', type: 'boolean' },
  { name: 'attempt', type: 'integer' },
  { name: 'fingerprint', type: 'text' },
  { name: 'last_error', type: 'jsonb' },
  { name: 'last_completed_step', type: 'text' },
  { name: 'destination_ref', type: 'text' },
  { name: 'duplicate_effects', type: 'integer' },
  { name: 'duplicate_claims', type: 'integer' },
  { name: 'payload_conflicts', type: 'integer' },
  { name: 'lease_worker', type: 'text' },
  { name: 'lease_expires_at', type: 'timestamptz' },
  { name: 'first_seen', type: 'timestamptz' },
  { name: 'last_change', type: 'timestamptz' },
  { name: 'last_position', type: 'bigint' },
  { name: 'fold', type: 'jsonb' },
  { name: 'last_event', type: 'text' },
  { name: 'review_position', type: 'bigint' },
  { name: 'review_previous', type: 'jsonb' },
];

const REVIEW_COLUMNS: readonly Column[] = [
  { name: 'operation_id', type: 'uuid' },
  { name: 'reason', type: 'text' },
  { name: 'tenant', type: 'text' },
  { name: 'source', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'subject', type: 'text' },
  { name: 'revision', type: 'integer' },
  { name: 'since', type: 'timestamptz' },
  { name: 'detail', type: 'jsonb' },
  { name: 'last_position', type: 'bigint' },
];

interface Loaded {
  fold: OperationFold;
  position: bigint;
  review: Map<string, string>; // reason → JSON of {since, detail}
  /** Position of the last change of the operation's review entries (the review feed), or null. */
  reviewPosition: string | null;
  /** The reasons the operation had before that change (sorted). */
  reviewPrevious: string[] | null;
}

/** A status row as written: the shown fields plus what the feeds read. */
type WrittenRow = StatusRow & {
  readonly last_event: string;
  readonly review_position: string | null;
  readonly review_previous: string[] | null;
};

/**
 * The operations read model: the status view (one row per operation) and the review queue (one
 * row per operation and reason). Rows keep the domain fold, so a batch folds in memory and writes
 * each row once. The review feed reads `review_position` on the status row, so a removed entry
 * is seen although its row is gone.
 */
export class OperationsReadModel implements ReadModel {
  readonly name = 'operations';
  readonly tables = ['operations', 'review_queue'];
  readonly feeds = [OPERATIONS_FEED, REVIEW_FEED];

  createTables(n: TableNames): string {
    const cols = (columns: readonly Column[]) => columns.map((c) => `${c.name} ${c.type}`).join(',\n  ');
    return `
create table ${n.operations} (
  ${cols(STATUS_COLUMNS)},
  primary key (operation_id)
);
create index on ${n.operations} (tenant, last_position);
create index on ${n.operations} (tenant, state, last_position);
create index on ${n.operations} (tenant, action, first_seen);
${reviewFeedIndex(n)};
create table ${n.review_queue} (
  ${cols(REVIEW_COLUMNS)},
  primary key (operation_id, reason)
);
create index on ${n.review_queue} (tenant, since, operation_id, reason);
`;
  }

  upgradeTables(n: TableNames): string {
    return `
alter table ${n.operations} add column if not exists last_event text,
  add column if not exists review_position bigint, add column if not exists review_previous jsonb;
${reviewFeedIndex(n)};
update ${n.operations} o set review_position = o.last_position
  from (select distinct operation_id from ${n.review_queue}) q
 where o.operation_id = q.operation_id and o.review_position is null;
`;
  }

  readFeed(
    sql: SqlQueryable,
    feed: string,
    tenant: string,
    after: bigint,
    limit: number,
  ): Promise<StoredChange[]> {
    return feed === REVIEW_FEED
      ? readReviewFeed(sql, tenant, after, limit)
      : readStatusFeed(sql, tenant, after, limit);
  }

  async apply(tx: SqlExecutor, events: readonly RecordedEvent[], n: TableNames): Promise<FeedChange[]> {
    const ids = [...new Set(events.map(operationIdOf).filter((id): id is string => id !== null))];
    const loaded = await this.load(tx, n, ids);
    const rows = new Map<string, WrittenRow>();
    const reviewRows = new Map<
      string,
      { id: string; items: ReviewItem[]; position: bigint; row: StatusRow }
    >();
    const changes: FeedChange[] = [];
    for (const event of events) {
      const id = operationIdOf(event);
      if (!id) continue;
      const current = loaded.get(id);
      if (current && event.globalPosition <= current.position) continue; // already applied
      const fold = foldEvent(current?.fold ?? null, event);
      if (!fold) continue;
      const row = statusRow(id, fold, event.globalPosition);
      if (!row) continue;
      const review = current?.review ?? new Map<string, string>();
      const state: Loaded = {
        fold,
        position: event.globalPosition,
        review,
        reviewPosition: current?.reviewPosition ?? null,
        reviewPrevious: current?.reviewPrevious ?? null,
      };
      loaded.set(id, state);
      changes.push(this.change(OPERATIONS_FEED, event, row));
      // The review queue does not depend on the audit counters.
      if (!isAuditEvent(event)) {
        const items = reviewItems(fold);
        const next = new Map(items.map((i) => [i.reason, reviewFingerprint(i.since, i.detail)]));
        if (!sameEntries(review, next)) {
          state.review = next;
          state.reviewPosition = event.globalPosition.toString();
          state.reviewPrevious = [...review.keys()].sort();
          reviewRows.set(id, { id, items, position: event.globalPosition, row });
          changes.push(this.change(REVIEW_FEED, event, row));
        }
      }
      rows.set(id, {
        ...row,
        last_event: event.type,
        review_position: state.reviewPosition,
        review_previous: state.reviewPrevious,
      });
    }
    await upsertRows(
      tx,
      n.operations!,
      STATUS_COLUMNS,
      ['operation_id'],
      [...rows.values()],
      'last_position',
    );
    await this.writeReview(tx, n, [...reviewRows.values()]);
    return changes;
  }

  private async load(tx: SqlExecutor, n: TableNames, ids: string[]): Promise<Map<string, Loaded>> {
    const loaded = new Map<string, Loaded>();
    if (ids.length === 0) return loaded;
    const { rows } = await tx.queryPrepared<{
      operation_id: string;
      fold: OperationFold;
      last_position: string;
      review_position: string | null;
      review_previous: string[] | null;
    }>(
      `rm_load_${n.operations}`,
      `select operation_id::text, fold, last_position::text, review_position::text, review_previous
         from ${n.operations} where operation_id = any($1::uuid[])`,
      [ids],
    );
    for (const r of rows) {
      loaded.set(r.operation_id, {
        fold: restoreFold(r.fold),
        position: BigInt(r.last_position),
        review: new Map(),
        reviewPosition: r.review_position,
        reviewPrevious: r.review_previous,
      });
    }
    // Only an operation whose review entries ever changed has any (see upgradeTables for rows
    // projected before review_position existed): most batches need no review read at all.
    const reviewed = rows.filter((r) => r.review_position !== null).map((r) => r.operation_id);
    if (reviewed.length === 0) return loaded;
    const review = await tx.queryPrepared<{
      operation_id: string;
      reason: string;
      since: string;
      detail: unknown;
    }>(
      `rm_load_${n.review_queue}`,
      `select operation_id::text, reason, to_char(since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as since, detail
         from ${n.review_queue} where operation_id = any($1::uuid[])`,
      [reviewed],
    );
    for (const r of review.rows) {
      loaded.get(r.operation_id)?.review.set(r.reason, reviewFingerprint(r.since, r.detail));
    }
    return loaded;
  }

  private async writeReview(
    tx: SqlExecutor,
    n: TableNames,
    ops: { id: string; items: ReviewItem[]; position: bigint; row: StatusRow }[],
  ): Promise<void> {
    if (ops.length === 0) return;
    const keep = ops.flatMap((op) => op.items.map((i) => `${op.id}/${i.reason}`));
    await tx.queryPrepared(
      `rm_delete_${n.review_queue}`,
      `delete from ${n.review_queue} where operation_id = any($1::uuid[])
         and not (operation_id::text || '/' || reason = any($2::text[]))`,
      [ops.map((op) => op.id), keep],
    );
    const rows = ops.flatMap((op) =>
      op.items.map((i) => ({
        operation_id: op.id,
        reason: i.reason,
        tenant: op.row.tenant,
        source: op.row.source,
        action: op.row.action,
        subject: op.row.subject,
        revision: op.row.revision,
        since: i.since,
        detail: i.detail,
        last_position: op.position.toString(),
      })),
    );
    await upsertRows(tx, n.review_queue!, REVIEW_COLUMNS, ['operation_id', 'reason'], rows);
  }

  private change(feed: string, event: RecordedEvent, row: StatusRow): FeedChange {
    return { feed, position: event.globalPosition, tenant: row.tenant };
  }
}

/** Partial index of the review feed (only operations whose review entries ever changed). */
function reviewFeedIndex(n: TableNames): string {
  return `create index if not exists ${n.operations}_review_feed on ${n.operations} (tenant, review_position)
  where review_position is not null`;
}

function operationIdOf(event: RecordedEvent): string | null {
  return isOperationEvent(event) ? (event.data as { operationId: string }).operationId : null;
}

/** Comparable text of one review entry (member order and time spelling normalised). */
function reviewFingerprint(since: string, detail: unknown): string {
  return stableJson({ since: new Date(since).toISOString(), detail });
}

function sameEntries(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}
