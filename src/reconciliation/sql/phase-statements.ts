import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';
import type { MatchMode, ReconciliationRun } from '../run.js';

/**
 * The set-based statements of a run's phases (docs/reconciliation.md "How it runs"). Each one can
 * run again after an interruption with the same result: it first deletes what an earlier try of
 * the same phase wrote. They read the status view `ledger_rm_operations` (the operations read
 * model) only while taking the snapshot.
 */

const WINDOW = `(($4::timestamptz is null or o.first_seen >= $4::timestamptz)
             and ($5::timestamptz is null or o.first_seen < $5::timestamptz))`;

/** Statement that fills `ledger_recon_keys` from the snapshot, per match mode. */
const KEY_STATEMENTS: Record<MatchMode, string> = {
  operationId: `insert into ledger_recon_keys (recon_id, match_ref, operation_id)
    select $1, operation_id::text, operation_id from ledger_recon_operations where recon_id = $1`,
  providerKey: `insert into ledger_recon_keys (recon_id, match_ref, operation_id)
    select distinct on (s.value->>'providerIdempotencyKey') $1, s.value->>'providerIdempotencyKey', o.operation_id
      from ledger_rm_operations o
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
    const { rows } = await tx.query<{ position: string }>(
      `select position::text as position from ledger_projections where name = 'operations'`,
    );
    await tx.query(
      `insert into ledger_recon_operations
         (recon_id, operation_id, source, action, subject, revision, state, destination_ref, first_seen, last_change, in_window)
       select $1, o.operation_id, o.source, o.action, o.subject, o.revision, o.state, o.destination_ref,
              o.first_seen, o.last_change, ${WINDOW}
         from ledger_rm_operations o where o.tenant = $2 and ($3::text is null or o.action = $3::text)`,
      [run.id, run.tenant, run.action, run.from, run.to],
    );
    const keyParams = run.match === 'providerKey' ? [run.id, run.tenant] : [run.id];
    await tx.query(KEY_STATEMENTS[run.match], keyParams);
    return rows[0]?.position ?? '-1';
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

/** Age of operation `o` at the epoch-ms parameter `$n`, ms. */
const age = (n: number) => `($${n}::bigint - (extract(epoch from o.first_seen) * 1000)::bigint)`;

/**
 * Categorize: writes the report's items, in one transaction — one per destination row (matched,
 * fields_differ on the reference, duplicate_effect for every row after the first of an operation,
 * unknown_found, unconfirmed_found, orphan), then per snapshot operation in the window without a
 * row (missing_at_destination, not_confirmed), then per source intent never claimed. Items that
 * need more work are marked: `compare` (payload fields), `pending` (a ledger write).
 */
export async function categorize(sql: SqlExecutor, run: ReconciliationRun, now: number): Promise<void> {
  const compare = run.options.compare.length > 0;
  const evidence = run.apply === 'evidence';
  await sql.transaction(async (tx) => {
    await tx.query('delete from ledger_recon_items where recon_id = $1', [run.id]);
    await tx.query(
      `insert into ledger_recon_items (recon_id, category, operation_id, op_action, subject, record_id, reference, line,
                                       state, destination_ref, first_seen, age_ms, apply_state, outcome, detail)
       select $1,
              case when r.operation_id is null then 'orphan'
                   when r.rank > 1 then 'duplicate_effect'
                   when o.state = 'confirmed' and o.destination_ref is not null and o.destination_ref <> r.record_id
                     then 'fields_differ'
                   when o.state = 'confirmed' then 'matched'
                   when o.state = 'unknown' then 'unknown_found'
                   else 'unconfirmed_found' end,
              r.operation_id, coalesce(o.action, $2::text), o.subject, r.record_id, r.reference, r.line,
              o.state, o.destination_ref, o.first_seen, case when o.first_seen is null then null else ${age(5)} end,
              case when r.operation_id is null then 'none'
                   when r.rank > 1 then 'pending'
                   when o.state = 'confirmed' and $3::boolean then 'compare'
                   when o.state = 'unknown' and $4::boolean then 'pending'
                   else 'none' end,
              case when r.operation_id is not null and r.rank = 1 and o.state = 'unknown' and not $4::boolean
                   then 'evidence_offered' end,
              jsonb_strip_nulls(jsonb_build_object(
                'fields', r.fields,
                'reason', case when r.operation_id is not null then null
                               when r.reference is null then 'the record carries no reference'
                               else 'no operation of the tenant has this reference' end,
                'differences', case when r.rank = 1 and o.state = 'confirmed' and o.destination_ref is not null
                                         and o.destination_ref <> r.record_id
                                    then jsonb_build_array(jsonb_build_object(
                                      'field', 'destinationRef', 'ledger', o.destination_ref, 'destination', r.record_id)) end))
         from (select d.*, row_number() over (
                        partition by d.operation_id
                        order by (d.record_id = x.destination_ref) is true desc, d.line) as rank
                 from ledger_recon_destination_rows d
                 left join ledger_recon_operations x on x.recon_id = $1 and x.operation_id = d.operation_id
                where d.recon_id = $1) r
         left join ledger_recon_operations o on o.recon_id = $1 and o.operation_id = r.operation_id
        order by r.line`,
      [run.id, run.action, compare, evidence, now],
    );
    await tx.query(
      `insert into ledger_recon_items (recon_id, category, operation_id, op_action, subject, state, destination_ref,
                                       first_seen, age_ms, detail)
       select $1, case when o.state = 'confirmed' then 'missing_at_destination' else 'not_confirmed' end,
              o.operation_id, o.action, o.subject, o.state, o.destination_ref, o.first_seen, ${age(2)},
              jsonb_build_object('source', o.source, 'revision', o.revision, 'lastChange', o.last_change)
         from ledger_recon_operations o
        where o.recon_id = $1 and o.in_window
          and not exists (select 1 from ledger_recon_destination_rows d
                           where d.recon_id = $1 and d.operation_id = o.operation_id)
        order by o.first_seen, o.operation_id`,
      [run.id, now],
    );
    await tx.query(
      `insert into ledger_recon_items (recon_id, category, operation_id, op_action, subject, line, detail)
       select $1, 'never_claimed', s.operation_id, coalesce(s.key->>'action', $3::text), s.key->>'subject', s.line,
              jsonb_strip_nulls(jsonb_build_object('key', s.key))
         from (select distinct on (operation_id) * from ledger_recon_source_rows
                where recon_id = $1 order by operation_id, line) s
        where not exists (select 1 from ledger_rm_operations o where o.operation_id = s.operation_id and o.tenant = $2)
        order by s.line`,
      [run.id, run.tenant, run.action],
    );
  });
}
