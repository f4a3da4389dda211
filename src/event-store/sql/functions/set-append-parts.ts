/**
 * CTEs shared by the set-based append functions (`ledger_create_streams`, `ledger_append_any`),
 * written once so both parse requests and number events the same way.
 */

/**
 * CTE `req`: the requests of `$1`, one row each with its 1-based `ord`. `$1`, not the parameter's
 * name, so the statements can be prepared and EXPLAINed on their own.
 */
export const REQUESTS = `req as (
    select r.ord, r.value ->> 'stream' as stream, r.value -> 'events' as events,
           jsonb_array_length(r.value -> 'events') as count,
           (r.value ->> 'streamId')::uuid as stream_id,
           (r.value #>> '{known,revision}')::bigint as known_revision,
           (r.value #>> '{known,first}')::bigint as known_first,
           r.value #>> '{onlyIf,stream}' as cond_stream,
           (r.value #>> '{onlyIf,revision}')::bigint as cond_revision
      from jsonb_array_elements($1::jsonb) with ordinality as r(value, ord)
  )`;

/**
 * CTEs `base` and `next`: the first free global position of the transaction, written out (a SQL
 * function call is planned on every execution). `next` is materialized so its probe runs once, not
 * per inserted row; read through a scalar subquery, a call that inserts nothing takes no
 * transaction id (no WAL flush for a batch of refusals).
 */
export const NEXT_POSITION = `base as (
    select (pg_current_xact_id()::text::bigint) << 20 as position
  ), next as materialized (
    select coalesce((select max(e.global_position) + 1 from ledger_events e
                      where e.global_position >= base.position
                        and e.global_position < base.position + 1048576), base.position) as position
      from base
  )`;

/**
 * Wraps a set-based statement as a PL/pgSQL function `name(p_requests text)`, whose plan is cached
 * per connection (PGlite has no named prepared statements; planning costs more than running).
 */
export function setAppendFunction(name: string, columns: string, query: string): string {
  return `
create or replace function ${name}(p_requests text)
returns table (${columns})
language plpgsql volatile
as $fn$
#variable_conflict use_column
begin
  return query
  ${query};
end
$fn$;
`;
}
