import type { SqlQueryable } from '../../event-store/sql-executor.js';
import { STATUS_VIEW } from '../../projections/status-view.js';
import type { ReconciliationRun } from '../run.js';

/**
 * The categorize phase's statements (docs/reconciliation.md "How it runs"): items are inserted per
 * chunk of lines, so no statement's writes grow with the upload.
 */

/** Age of operation `o` at the epoch-ms parameter `$n`, ms. */
const age = (n: number) => `($${n}::bigint - (extract(epoch from o.first_seen) * 1000)::bigint)`;

/**
 * Starts (or restarts) the phase: records each matched operation's first row, the line with the
 * confirmed reference, else the lowest.
 */
export async function startCategorize(sql: SqlQueryable, run: ReconciliationRun): Promise<void> {
  await sql.query('delete from ledger_recon_items where recon_id = $1', [run.id]);
  await sql.query('delete from ledger_recon_first_rows where recon_id = $1', [run.id]);
  await sql.query(
    `insert into ledger_recon_first_rows (recon_id, operation_id, line)
     select $1, d.operation_id, coalesce(min(d.line) filter (where d.record_id = x.destination_ref), min(d.line))
       from ledger_recon_destination_rows d
       left join ledger_recon_operations x on x.recon_id = $1 and x.operation_id = d.operation_id
      where d.recon_id = $1 and d.operation_id is not null
      group by d.operation_id, x.destination_ref`,
    [run.id],
  );
}

/**
 * Items of the destination lines in `(after, upTo]` (docs/reconciliation.md "Categories"); those
 * needing more work are marked `compare` (payload fields) or `pending` (a ledger write).
 */
export async function categorizeLines(
  sql: SqlQueryable,
  run: ReconciliationRun,
  after: number,
  upTo: number,
  now: number,
): Promise<void> {
  await sql.query(
    `insert into ledger_recon_items (recon_id, category, operation_id, op_action, subject, record_id, reference, line,
                                     state, destination_ref, first_seen, age_ms, apply_state, outcome, detail)
     select $1,
            case when r.operation_id is null then 'orphan'
                 when r.later then 'duplicate_effect'
                 when o.state = 'confirmed' and o.destination_ref is not null and o.destination_ref <> r.record_id
                   then 'fields_differ'
                 when o.state = 'confirmed' then 'matched'
                 when o.state = 'unknown' then 'unknown_found'
                 else 'unconfirmed_found' end,
            r.operation_id, coalesce(o.action, $2::text), o.subject, r.record_id, r.reference, r.line,
            o.state, o.destination_ref, o.first_seen, case when o.first_seen is null then null else ${age(5)} end,
            case when r.operation_id is null then 'none'
                 when r.later then 'pending'
                 when o.state = 'confirmed' and $3::boolean then 'compare'
                 when o.state = 'unknown' and $4::boolean then 'pending'
                 else 'none' end,
            case when r.operation_id is not null and not r.later and o.state = 'unknown' and not $4::boolean
                 then 'evidence_offered' end,
            jsonb_strip_nulls(jsonb_build_object(
              'fields', r.fields,
              'reason', case when r.operation_id is not null then null
                             when r.reference is null then 'the record carries no reference'
                             else 'no operation of the tenant has this reference' end,
              'differences', case when not r.later and o.state = 'confirmed' and o.destination_ref is not null
                                       and o.destination_ref <> r.record_id
                                  then jsonb_build_array(jsonb_build_object(
                                    'field', 'destinationRef', 'ledger', o.destination_ref, 'destination', r.record_id)) end))
       from (select d.*, (f.line is distinct from d.line) as later
               from ledger_recon_destination_rows d
               left join ledger_recon_first_rows f on f.recon_id = $1 and f.operation_id = d.operation_id
              where d.recon_id = $1 and d.line > $6 and d.line <= $7) r
       left join ledger_recon_operations o on o.recon_id = $1 and o.operation_id = r.operation_id
      order by r.line`,
    [run.id, run.action, run.options.compare.length > 0, run.apply === 'evidence', now, after, upTo],
  );
}

/**
 * Items of the snapshot's operations in the window without a destination row
 * (missing_at_destination, not_confirmed, with `ageMs`): bounded by the snapshot.
 */
export async function categorizeOperations(
  sql: SqlQueryable,
  run: ReconciliationRun,
  now: number,
): Promise<void> {
  await sql.query(
    `insert into ledger_recon_items (recon_id, category, operation_id, op_action, subject, state, destination_ref,
                                     first_seen, age_ms, detail)
     select $1, case when o.state = 'confirmed' then 'missing_at_destination' else 'not_confirmed' end,
            o.operation_id, o.action, o.subject, o.state, o.destination_ref, o.first_seen, ${age(2)},
            jsonb_build_object('source', o.source, 'revision', o.revision, 'lastChange', o.last_change)
       from ledger_recon_operations o
      where o.recon_id = $1 and o.in_window
        and not exists (select 1 from ledger_recon_first_rows f
                         where f.recon_id = $1 and f.operation_id = o.operation_id)
      order by o.first_seen, o.operation_id`,
    [run.id, now],
  );
}

/** The highest line of the run's source intents (0 when there are none). */
export async function lastSourceLine(sql: SqlQueryable, id: string): Promise<number> {
  const { rows } = await sql.query<{ n: string | null }>(
    'select max(line)::text as n from ledger_recon_source_rows where recon_id = $1',
    [id],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * never_claimed items of the source lines in `(after, upTo]`: an intent whose operation the
 * tenant does not have, once per operation (at its lowest line).
 */
export async function categorizeSourceLines(
  sql: SqlQueryable,
  run: ReconciliationRun,
  after: number,
  upTo: number,
): Promise<void> {
  await sql.query(
    `insert into ledger_recon_items (recon_id, category, operation_id, op_action, subject, line, detail)
     select $1, 'never_claimed', s.operation_id, coalesce(s.key->>'action', $3::text), s.key->>'subject', s.line,
            jsonb_strip_nulls(jsonb_build_object('key', s.key))
       from ledger_recon_source_rows s
      where s.recon_id = $1 and s.line > $4 and s.line <= $5
        and not exists (select 1 from ledger_recon_source_rows e
                         where e.recon_id = $1 and e.operation_id = s.operation_id and e.line < s.line)
        and not exists (select 1 from ${STATUS_VIEW} o where o.operation_id = s.operation_id and o.tenant = $2)
      order by s.line`,
    [run.id, run.tenant, run.action, after, upTo],
  );
}
