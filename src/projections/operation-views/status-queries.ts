import type { OperationListFilter, OperationRow } from '@operation-ledger/protocol';
import type { SqlQueryable } from '../../event-store/sql-executor.js';
import { iso, SqlFilter } from '../core/sql-values.js';
import { presentStatusRow, type StatusRow } from './status-row.js';

/**
 * Where a walk of the status view stands ({@link queryStatus}): `older`, rows below `below` as of
 * `asOf`; `newer`, rows above `above`, oldest first. Positions are decimal text.
 */
export type StatusCursor =
  | { readonly leg: 'older'; readonly below: string; readonly asOf: string }
  | { readonly leg: 'newer'; readonly above: string };

/** Filters and page of the status view (all optional but the tenant). Times ISO 8601. */
export interface StatusQuery extends OperationListFilter {
  readonly tenant: string;
  /** Order of a first page; a cursor carries its own. */
  readonly order: 'asc' | 'desc';
  readonly limit: number;
  /** Where the previous page left the walk (absent: the first page). */
  readonly after?: StatusCursor;
}

/** A page of the status view; `next` continues the walk, null on the last page. */
export interface StatusPage {
  readonly items: OperationRow[];
  readonly next: StatusCursor | null;
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
 * One page of a tenant's status view, ordered by last change (newest first by default). A row
 * that changes moves to the newest position, which would jump behind a newest-first cursor; so
 * such a walk remembers where it began (`asOf`), returns the rows at or below it, then those
 * above it oldest first. Every matching row comes at least once; a changed one may come twice.
 */
export async function queryStatus(sql: SqlQueryable, q: StatusQuery): Promise<StatusPage> {
  const filter = () =>
    new SqlFilter()
      .add('tenant = ?', q.tenant)
      .addIf('state = ?', q.state)
      .addIf('action = ?', q.action)
      .addIf('source = ?', q.source)
      .addIf('starts_with(subject, ?)', q.subjectPrefix)
      .addIf('last_change >= ?::timestamptz', q.changedSince);
  const cursor = q.after;
  const f = filter();
  if (cursor?.leg === 'older') f.add('last_position < ?::text::bigint', cursor.below);
  if (cursor?.leg === 'newer') f.add('last_position > ?::text::bigint', cursor.above);
  const order = cursor ? (cursor.leg === 'older' ? 'desc' : 'asc') : q.order;
  const asOf =
    order === 'desc' && !cursor
      ? `, (select max(last_position) from ledger_rm_operations where tenant = ${f.param(q.tenant)})::text as as_of`
      : '';
  const { rows } = await sql.query<StatusRow & { as_of?: string | null }>(
    `select ${STATUS_SELECT}${asOf}
       from ledger_rm_operations where ${f.where}
      -- Qualified: the text alias of the same name would sort as text ('999' > '1000').
      order by ledger_rm_operations.last_position ${order} limit ${f.param(q.limit + 1)}`,
    f.params,
  );
  const page = rows.slice(0, q.limit).map((r) => presentStatusRow(statusRowFromDb(r)));
  const last = page[page.length - 1]?.position;
  if (order === 'asc')
    return { items: page, next: rows.length > q.limit ? { leg: 'newer', above: last! } : null };
  const since = cursor?.leg === 'older' ? cursor.asOf : (rows[0]?.as_of ?? null);
  if (rows.length > q.limit) return { items: page, next: { leg: 'older', below: last!, asOf: since! } };
  // A one-page walk saw one snapshot: nothing changed during it.
  if (cursor?.leg !== 'older') return { items: page, next: null };
  // The older rows are done: go on with the rows that changed since the walk began, if any.
  const changed = filter().add('last_position > ?::text::bigint', cursor.asOf);
  const { rows: found } = await sql.query(
    `select 1 from ledger_rm_operations where ${changed.where} limit 1`,
    changed.params,
  );
  return { items: page, next: found.length > 0 ? { leg: 'newer', above: cursor.asOf } : null };
}
