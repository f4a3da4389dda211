import type { SqlQueryable } from '../../event-store/sql-executor.js';
import type { StoredChange } from '../core/read-model.js';
import { SqlFilter } from '../core/sql-values.js';
import { CONFLICTS_FEED, presentConflictRow } from './conflict-row.js';

/** Filters and page of the conflict report (newest first). */
export interface ConflictsQuery {
  readonly tenant: string;
  readonly action?: string;
  readonly since?: string;
  readonly limit: number;
  /** Position of the last conflict of the previous page. */
  readonly after?: string;
}

const CONFLICT_SELECT = `event_id::text as event_id, position::text as position, tenant,
  operation_id::text as operation_id, source, action, subject, revision, attempt, at, worker_id,
  existing_fingerprint, incoming_fingerprint, diff, diff_truncated`;

/** One page of a tenant's payload conflicts, newest first, each with both fingerprints and the diff. */
export async function queryConflicts(
  sql: SqlQueryable,
  q: ConflictsQuery,
): Promise<{ items: ReturnType<typeof presentConflictRow>[]; last: string | null }> {
  const f = new SqlFilter()
    .add('tenant = ?', q.tenant)
    .addIf('action = ?', q.action)
    .addIf('at >= ?::timestamptz', q.since)
    .addIf('position < ?::text::bigint', q.after);
  const { rows } = await sql.query<Record<string, unknown>>(
    `select ${CONFLICT_SELECT}
       from ledger_rm_conflicts where ${f.where} order by ledger_rm_conflicts.position desc limit ${f.param(q.limit + 1)}`,
    f.params,
  );
  const items = rows.slice(0, q.limit).map(presentConflictRow);
  const last = items[items.length - 1];
  return { items, last: rows.length > q.limit && last ? last.position : null };
}

/**
 * The conflicts feed of `tenant` after `after`: its conflicts recorded after that position,
 * oldest first, at most `limit`, each as a `conflict` entry shown as the report shows it.
 */
export async function readConflictsFeed(
  sql: SqlQueryable,
  tenant: string,
  after: bigint,
  limit: number,
): Promise<StoredChange[]> {
  const { rows } = await sql.query<Record<string, unknown>>(
    `select ${CONFLICT_SELECT} from ledger_rm_conflicts
      where tenant = $1 and position > $2::text::bigint order by ledger_rm_conflicts.position limit $3`,
    [tenant, after.toString(), limit],
  );
  return rows.map((row) => ({
    feed: CONFLICTS_FEED,
    tenant,
    position: BigInt(String(row.position)),
    type: 'conflict',
    data: presentConflictRow(row),
  }));
}
