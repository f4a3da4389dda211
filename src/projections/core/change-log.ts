import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';
import type { FeedChange } from './read-model.js';

/** A feed change as stored (positions as bigint). */
export interface StoredChange {
  readonly feed: string;
  readonly position: bigint;
  readonly tenant: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
}

/**
 * Writes feed changes in the read model's transaction (one statement). A change already recorded
 * for `(feed, position)` is kept as it is (a re-applied event changes nothing). A prepared statement.
 */
export async function writeChanges(tx: SqlExecutor, changes: readonly FeedChange[]): Promise<void> {
  if (changes.length === 0) return;
  const rows = changes.map((c) => ({
    feed: c.feed,
    position: c.position.toString(),
    tenant: c.tenant,
    type: c.type,
    data: c.data,
  }));
  await tx.queryPrepared(
    'rm_write_changes',
    `insert into ledger_projection_changes (feed, position, tenant, type, data)
     select feed, position, tenant, type, data
       from jsonb_to_recordset($1::text::jsonb) as x(feed text, position bigint, tenant text, type text, data jsonb)
     on conflict (feed, position) do nothing`,
    [JSON.stringify(rows)],
  );
}

/**
 * Changes of `feed` for `tenant` after position `after`, oldest first, at most `limit`.
 */
export async function readChanges(
  sql: SqlQueryable,
  feed: string,
  tenant: string,
  after: bigint,
  limit: number,
): Promise<StoredChange[]> {
  const { rows } = await sql.query<{ position: string; type: string; data: Record<string, unknown> }>(
    `select position::text as position, type, data from ledger_projection_changes
      where feed = $1 and tenant = $2 and position > $3::text::bigint
      order by ledger_projection_changes.position limit $4`,
    [feed, tenant, after.toString(), limit],
  );
  return rows.map((r) => ({ feed, tenant, position: BigInt(r.position), type: r.type, data: r.data }));
}

/**
 * Deletes changes of `feeds` recorded more than `retentionMs` ago and records, in the same
 * statement, the highest position pruned on the read model's row (a subscriber resuming from
 * before it is told to reload). @returns the number of deleted changes.
 */
export async function pruneChanges(
  sql: SqlQueryable,
  projection: string,
  feeds: readonly string[],
  retentionMs: number,
): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `with gone as (
       delete from ledger_projection_changes
        where feed = any($1::text[]) and recorded_at < now() - make_interval(secs => $2::double precision / 1000)
        returning position),
     marked as (
       update ledger_projections
          set changes_pruned_through = greatest(changes_pruned_through, (select max(position) from gone))
        where name = $3 and exists (select 1 from gone))
     select count(*)::int as n from gone`,
    [feeds, retentionMs, projection],
  );
  return Number(rows[0]!.n);
}
