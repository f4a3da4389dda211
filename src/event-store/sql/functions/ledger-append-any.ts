import { NEXT_POSITION, REQUESTS, setAppendFunction } from './set-append-parts.js';

/**
 * The statement of `ledger_append_any` (see {@link LEDGER_APPEND_ANY_FUNCTION}); `$1` = the
 * requests as JSON text.
 *
 * `held` probes each condition stream with a lateral subquery, so the lookup is an index probe
 * whatever the statistics say: a semi-join's plan on a small table is a sequential scan, and a
 * connection keeps that plan while the table grows.
 */
export const APPEND_ANY_QUERY = `with ${REQUESTS}, held as materialized (
    select h.stream_name, h.stream_position
      from (select req.cond_stream from req where req.cond_stream is not null
             group by req.cond_stream order by req.cond_stream collate "C") c
     cross join lateral (select s.stream_name, s.stream_position from ledger_streams s
                          where s.stream_name = c.cond_stream for share) h
  ), admitted as materialized (
    select req.* from req
     where req.cond_stream is null
        or exists (select 1 from held
                    where held.stream_name = req.cond_stream and held.stream_position = req.cond_revision)
  ), moved as (
    insert into ledger_streams as s (stream_name, stream_position)
    select admitted.stream, admitted.count - 1 from admitted order by admitted.stream collate "C"
    on conflict (stream_name) do update set stream_position = s.stream_position + excluded.stream_position + 1
    returning s.stream_name, s.stream_position
  ), ${NEXT_POSITION}, ev as (
    select admitted.ord, admitted.stream, moved.stream_position - admitted.count as before, t.e, t.i,
           row_number() over (order by admitted.ord, t.i) as n
      from admitted join moved on moved.stream_name = admitted.stream
     cross join jsonb_array_elements(admitted.events) with ordinality as t(e, i)
  ), inserted as (
    insert into ledger_events (global_position, event_id, stream_name, stream_position, type, data, metadata)
    select (select next.position from next) + ev.n - 1, (ev.e ->> 'id')::uuid, ev.stream, ev.before + ev.i,
           ev.e ->> 'type', ev.e -> 'data', coalesce(ev.e -> 'metadata', '{}'::jsonb)
      from ev
    returning stream_name, global_position
  ), positions as (
    select stream_name, min(global_position) as first_global from inserted group by stream_name
  )
  select req.ord::integer as ord, moved.stream_position::text as next_revision,
         positions.first_global::text as first_global, held.stream_position::text as condition_actual
    from req left join moved on moved.stream_name = req.stream
    left join positions on positions.stream_name = req.stream
    left join held on held.stream_name = req.cond_stream
   order by req.ord`;

/**
 * `ledger_append_any(p_requests text)`: many `any` appends (audit events) to distinct streams in
 * ONE call. Each stream row is created or moved on with `on conflict … do update`, which locks it
 * like `ledger_append`'s `FOR UPDATE`, in stream-name order.
 *
 * `p_requests`: JSON text `[{stream, onlyIf?: {stream, revision}, events: […]}]`. A request with
 * `onlyIf` is written only if that stream is at that revision under `FOR SHARE`, held to commit so
 * no append to it slips in between (those rows are locked first, in name order).
 *
 * One row per request: `ord`; when written, `next_revision` and `first_global`; when its condition
 * failed, both null and `condition_actual`. Errors as `ledger_create_streams`'s.
 */
export const LEDGER_APPEND_ANY_FUNCTION = setAppendFunction(
  'ledger_append_any',
  'ord integer, next_revision text, first_global text, condition_actual text',
  APPEND_ANY_QUERY,
);
