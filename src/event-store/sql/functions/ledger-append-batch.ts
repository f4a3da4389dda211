/**
 * `ledger_append_batch(p_requests jsonb)`: `[{stream, expected, events, streamId?}]` through
 * `ledger_append`, in one transaction; requests run in stream-name order (a global lock order, so
 * batches cannot deadlock on stream rows) and return one row each, tagged `request_index`
 * (0-based request order). A failed expected-revision check is that request's row only; an
 * `LG001` fails the whole batch. Errors as `ledger_append`'s.
 */
export const LEDGER_APPEND_BATCH_FUNCTION = `
create or replace function ledger_append_batch(p_requests jsonb)
returns table (request_index integer, ok boolean, actual bigint, next_revision bigint,
               first_global bigint, last_global bigint, deduplicated boolean, current_events jsonb)
language plpgsql volatile
as $fn$
#variable_conflict use_column
declare
  r record;
  a record;
begin
  if p_requests is null or jsonb_typeof(p_requests) <> 'array' then
    raise exception 'ledger_append_batch: requests must be a JSON array' using errcode = '22023';
  end if;
  for r in
    select (t.ord - 1)::integer as idx, t.req
      from jsonb_array_elements(p_requests) with ordinality as t(req, ord)
     order by t.req ->> 'stream' collate "C", t.ord
  loop
    select * into a from ledger_append(
      r.req ->> 'stream', r.req ->> 'expected', r.req -> 'events', (r.req ->> 'streamId')::uuid);
    request_index := r.idx;
    ok := a.ok;
    actual := a.actual;
    next_revision := a.next_revision;
    first_global := a.first_global;
    last_global := a.last_global;
    deduplicated := a.deduplicated;
    current_events := a.current_events;
    return next;
  end loop;
end
$fn$;
`;
