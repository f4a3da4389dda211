import type { SqlQueryable } from '../event-store/sql-executor.js';
import { checkpointStore } from './core/checkpoint-store.js';
import { viewName } from './core/read-model.js';

/**
 * The status view as other rooms read it (jobs, reconciliation): the one door into the operations
 * read model's tables. It nominates, never decides: callers re-decide each row on its stream.
 */

/**
 * The status view's name, for statements joining it in one transaction. One row per operation:
 * `operation_id`, `tenant`, `source`, `action`, `subject`, `revision`, `state`, `retryable`,
 * `destination_ref`, `first_seen`, `last_change`, `lease_expires_at` and `fold` (jsonb state).
 */
export const STATUS_VIEW = viewName('operations');

/** The read model that keeps {@link STATUS_VIEW}. */
const STATUS_READ_MODEL = 'operations';

/**
 * The global position (decimal string; `-1` before the first event or when not installed) the
 * status view reflects — for a snapshot taken in the same transaction as its rows.
 */
export async function statusViewCheckpoint(sql: SqlQueryable): Promise<string> {
  const record = await checkpointStore.load(sql, STATUS_READ_MODEL);
  return (record?.position ?? -1n).toString();
}

/** The key of one operation as the status view lists it (revision as stored). */
export interface ListedOperation {
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
  readonly revision: number;
}

/**
 * In-progress operations whose lease expired at or before `now` (ms since the epoch, the
 * server clock), oldest expiry first, at most `limit`.
 */
export async function expiredLeases(
  sql: SqlQueryable,
  now: number,
  limit: number,
): Promise<ListedOperation[]> {
  const { rows } = await sql.query<ListedOperation>(
    `select tenant, source, action, subject, revision from ${STATUS_VIEW}
      where state = 'in_progress' and lease_expires_at <= $1::timestamptz
      order by lease_expires_at limit $2`,
    [new Date(now).toISOString(), limit],
  );
  return rows.map((row) => ({ ...row, revision: Number(row.revision) }));
}

/** Finished for retention (docs/domain.md "Retention"): confirmed, final failure, abandoned, rejected. */
const FINISHED = `(state in ('confirmed', 'abandoned', 'rejected') or (state = 'failed' and retryable = false))
  and coalesce(fold->'state'->'archived', 'null'::jsonb) = 'null'::jsonb`;

/**
 * The (tenant, action) pairs that have finished, not yet archived operations whose last change
 * is at or before `changedBy` (ms since the epoch).
 */
export async function finishedScopes(
  sql: SqlQueryable,
  changedBy: number,
): Promise<{ tenant: string; action: string }[]> {
  const { rows } = await sql.query<{ tenant: string; action: string }>(
    `select distinct tenant, action from ${STATUS_VIEW} where ${FINISHED} and last_change <= $1::timestamptz`,
    [new Date(changedBy).toISOString()],
  );
  return rows;
}

/**
 * Finished, not yet archived operations of `tenant` and `action` whose last change is at or
 * before `changedBy` (ms since the epoch), least recently changed first, at most `limit`.
 */
export async function finishedOperations(
  sql: SqlQueryable,
  scope: { readonly tenant: string; readonly action: string },
  changedBy: number,
  limit: number,
): Promise<ListedOperation[]> {
  const { rows } = await sql.query<ListedOperation>(
    `select tenant, source, action, subject, revision from ${STATUS_VIEW}
      where tenant = $1 and action = $2 and ${FINISHED} and last_change <= $3::timestamptz
      order by last_change limit $4`,
    [scope.tenant, scope.action, new Date(changedBy).toISOString(), limit],
  );
  return rows.map((row) => ({ ...row, revision: Number(row.revision) }));
}
