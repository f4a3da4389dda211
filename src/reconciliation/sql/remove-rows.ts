import type { SqlExecutor } from '../../event-store/sql-executor.js';
import { STALE_HOLDER_S } from './run-store.js';

/** Rows deleted per statement by the sweep (each statement's WAL stays small). */
export const REMOVE_CHUNK = 10_000;

/** Tables whose rows only a running run needs: removed once it finished. */
const WORK_TABLES = [
  'ledger_recon_destination_rows',
  'ledger_recon_source_rows',
  'ledger_recon_keys',
  'ledger_recon_first_rows',
  'ledger_recon_operations',
] as const;

/** A run whose rows the sweep removes: `report` keeps its items (a completed run's report). */
interface Target {
  readonly id: string;
  readonly keepItems: boolean;
  readonly discarded: boolean;
}

/**
 * The next run whose spilled rows are to go: a discarded upload, else a run finished at least a
 * lease ago (a holder wrongly presumed dead may still work on it); a failed run's items go too.
 */
async function nextTarget(sql: SqlExecutor): Promise<Target | null> {
  const discarded = await sql.query<{ id: string }>(
    'select recon_id::text as id from ledger_recon_discarded order by discarded_at limit 1',
  );
  if (discarded.rows[0]) return { id: discarded.rows[0].id, keepItems: false, discarded: true };
  const { rows } = await sql.query<{ id: string; status: string }>(
    `select id::text as id, status from ledger_reconciliations
      where status in ('completed', 'failed') and rows_removed_at is null
        and finished_at < now() - make_interval(secs => $1)
      order by finished_at limit 1`,
    [STALE_HOLDER_S],
  );
  const run = rows[0];
  return run ? { id: run.id, keepItems: run.status === 'completed', discarded: false } : null;
}

/** Deletes up to {@link REMOVE_CHUNK} rows of run `id` from `table`. @returns how many. */
async function deleteChunk(sql: SqlExecutor, table: string, id: string): Promise<number> {
  const { rows } = await sql.query(
    `delete from ${table} where ctid = any(array(select ctid from ${table} where recon_id = $1 limit ${REMOVE_CHUNK}))
     returning 1 as removed`,
    [id],
  );
  return rows.length;
}

/**
 * One round of the sweep (docs/reconciliation.md "Storage bounds"): removes one run's spilled
 * rows in chunks while `mayGoOn`; `vacuum` for the embedded store, which has no autovacuum.
 * @returns whether a run was finished off this round.
 * @throws store errors as they come.
 */
export async function removeFinishedRows(
  sql: SqlExecutor,
  mayGoOn: () => Promise<boolean>,
  vacuum: boolean,
): Promise<boolean> {
  const target = await nextTarget(sql);
  if (!target) return false;
  const tables = target.keepItems ? WORK_TABLES : [...WORK_TABLES, 'ledger_recon_items'];
  for (const table of tables) {
    for (;;) {
      if (!(await mayGoOn())) return false;
      if ((await deleteChunk(sql, table, target.id)) < REMOVE_CHUNK) break;
    }
  }
  if (target.discarded) {
    await sql.query('delete from ledger_recon_discarded where recon_id = $1', [target.id]);
  } else {
    await sql.query('update ledger_reconciliations set rows_removed_at = now() where id = $1', [target.id]);
  }
  if (vacuum) await sql.exec(`vacuum ${tables.join(', ')}`);
  return true;
}
