import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';
import { STATUS_VIEW, statusViewCheckpoint } from '../../projections/status-view.js';
import type { MatchMode, ReconciliationRun } from '../run.js';

/**
 * The set-based statements of a run's phases (docs/reconciliation.md "How it runs"), each
 * rerunnable (it first deletes what an earlier try wrote); only the snapshot reads the status view.
 */

const WINDOW = `(($4::timestamptz is null or o.first_seen >= $4::timestamptz)
             and ($5::timestamptz is null or o.first_seen < $5::timestamptz))`;

/** Statement that fills `ledger_recon_keys` from the snapshot, per match mode. */
const KEY_STATEMENTS: Record<MatchMode, string> = {
  operationId: `insert into ledger_recon_keys (recon_id, match_ref, operation_id)
    select $1, operation_id::text, operation_id from ledger_recon_operations where recon_id = $1`,
  providerKey: `insert into ledger_recon_keys (recon_id, match_ref, operation_id)
    select distinct on (s.value->>'providerIdempotencyKey') $1, s.value->>'providerIdempotencyKey', o.operation_id
      from ${STATUS_VIEW} o
      join ledger_recon_operations r on r.recon_id = $1 and r.operation_id = o.operation_id
      cross join lateral jsonb_each(coalesce(o.fold->'state'->'steps', '{}'::jsonb)) s
     where o.tenant = $2 and s.value->>'providerIdempotencyKey' is not null
     order by s.value->>'providerIdempotencyKey', o.first_seen
    on conflict do nothing`,
  subject: `insert into ledger_recon_keys (recon_id, match_ref, operation_id)
    select distinct on (subject) $1, subject, operation_id from ledger_recon_operations
     where recon_id = $1 order by subject, revision desc, first_seen desc`,
};

/**
 * Snapshot: copies the run's operations (tenant, action) from the status view, marks those first
 * seen in `[from, to)`, builds the match references, in one transaction.
 * @returns the status view's checkpoint (global position, decimal string) the snapshot reflects.
 */
export async function takeSnapshot(sql: SqlExecutor, run: ReconciliationRun): Promise<string> {
  return sql.transaction(async (tx) => {
    await tx.query('delete from ledger_recon_keys where recon_id = $1', [run.id]);
    await tx.query('delete from ledger_recon_operations where recon_id = $1', [run.id]);
    const position = await statusViewCheckpoint(tx);
    await tx.query(
      `insert into ledger_recon_operations
         (recon_id, operation_id, source, action, subject, revision, state, destination_ref, first_seen, last_change, in_window)
       select $1, o.operation_id, o.source, o.action, o.subject, o.revision, o.state, o.destination_ref,
              o.first_seen, o.last_change, ${WINDOW}
         from ${STATUS_VIEW} o where o.tenant = $2 and ($3::text is null or o.action = $3::text)`,
      [run.id, run.tenant, run.action, run.from, run.to],
    );
    const keyParams = run.match === 'providerKey' ? [run.id, run.tenant] : [run.id];
    await tx.query(KEY_STATEMENTS[run.match], keyParams);
    return position;
  });
}

/** The highest line of the run's destination rows (0 when there are none). */
export async function lastLine(sql: SqlQueryable, id: string): Promise<number> {
  const { rows } = await sql.query<{ n: string | null }>(
    'select max(line)::text as n from ledger_recon_destination_rows where recon_id = $1',
    [id],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Match: sets `operation_id` of the destination rows with lines in `(after, upTo]` from the
 * snapshot's references (ids and provider keys compared in lower case, subjects exactly).
 */
export async function matchLines(
  sql: SqlQueryable,
  run: ReconciliationRun,
  after: number,
  upTo: number,
): Promise<void> {
  const ref = run.match === 'subject' ? 'd.reference' : 'lower(d.reference)';
  await sql.query(
    `update ledger_recon_destination_rows d set operation_id = k.operation_id
       from ledger_recon_keys k
      where d.recon_id = $1 and d.line > $2 and d.line <= $3 and k.recon_id = $1 and k.match_ref = ${ref}`,
    [run.id, after, upTo],
  );
}
