import type { SqlQueryable } from '../../event-store/sql-executor.js';
import { iso, SqlFilter } from '../core/sql-values.js';
import { presentStatusRow, type StatusRow } from './status-row.js';

/** Filters and page of the status view (all optional but the tenant). Times ISO 8601. */
export interface StatusQuery {
  readonly tenant: string;
  readonly state?: string;
  readonly action?: string;
  readonly source?: string;
  readonly subjectPrefix?: string;
  readonly changedSince?: string;
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  /** Position of the last row of the previous page. */
  readonly after?: string;
}

/** A page of the status view; `last` is the position to continue after, null on the last page. */
export interface StatusPage {
  readonly items: ReturnType<typeof presentStatusRow>[];
  readonly last: string | null;
}

/** The select list of a status row as {@link statusRowFromDb} takes it. */
export const STATUS_SELECT = `operation_id::text as operation_id, tenant, source, action, subject, revision, state,
  retryable, attempt, fingerprint, last_error, last_completed_step, destination_ref, duplicate_effects,
  duplicate_claims, payload_conflicts, lease_worker, lease_expires_at, first_seen, last_change,
  last_position::text as last_position, fold`;

/** A status row as the driver returns {@link STATUS_SELECT} (times as Date or text) → as written. */
export function statusRowFromDb(r: StatusRow): StatusRow {
  return {
    ...r,
    lease_expires_at: iso(r.lease_expires_at),
    first_seen: iso(r.first_seen)!,
    last_change: iso(r.last_change)!,
  };
}

/**
 * One page of the status view of a tenant, ordered by last change (projection order, newest
 * first by default), filtered by state, action, source, subject prefix and change time.
 */
export async function queryStatus(sql: SqlQueryable, q: StatusQuery): Promise<StatusPage> {
  const f = new SqlFilter()
    .add('tenant = ?', q.tenant)
    .addIf('state = ?', q.state)
    .addIf('action = ?', q.action)
    .addIf('source = ?', q.source)
    .addIf('starts_with(subject, ?)', q.subjectPrefix)
    .addIf('last_change >= ?::timestamptz', q.changedSince);
  if (q.after !== undefined) f.add(`last_position ${q.order === 'asc' ? '>' : '<'} ?::text::bigint`, q.after);
  const { rows } = await sql.query<StatusRow>(
    `select ${STATUS_SELECT}
       from ledger_rm_operations where ${f.where}
      -- Qualified: the text alias of the same name would sort as text ('999' > '1000').
      order by ledger_rm_operations.last_position ${q.order} limit ${f.param(q.limit + 1)}`,
    f.params,
  );
  const page = rows.slice(0, q.limit).map((r) => presentStatusRow(statusRowFromDb(r)));
  return { items: page, last: rows.length > q.limit ? page[page.length - 1]!.position : null };
}
