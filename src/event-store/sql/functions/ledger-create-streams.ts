import { NEXT_POSITION, REQUESTS, setAppendFunction } from './set-append-parts.js';

/**
 * The statement of `ledger_create_streams` (see {@link LEDGER_CREATE_STREAMS_FUNCTION}); `$1` =
 * the requests as JSON text.
 */
export const CREATE_STREAMS_QUERY = `with ${REQUESTS}, created as (
    insert into ledger_streams (stream_name, stream_position, stream_id)
    select req.stream, req.count - 1, req.stream_id from req
     order by req.stream collate "C"
    on conflict do nothing
    returning stream_name
  ), ${NEXT_POSITION}, ev as (
    select req.stream, t.e, t.i, row_number() over (order by req.ord, t.i) as n
      from req join created on created.stream_name = req.stream
     cross join jsonb_array_elements(req.events) with ordinality as t(e, i)
  ), inserted as (
    insert into ledger_events (global_position, event_id, stream_name, stream_position, type, data, metadata)
    select (select next.position from next) + ev.n - 1, (ev.e ->> 'id')::uuid, ev.stream, ev.i - 1,
           ev.e ->> 'type', ev.e -> 'data', coalesce(ev.e -> 'metadata', '{}'::jsonb)
      from ev
    returning stream_name, global_position
  ), positions as (
    select stream_name, min(global_position) as first_global, max(global_position) as last_global
      from inserted group by stream_name
  ), refused as (
    select req.ord, s.stream_position as actual,
           (select min(e.stream_position) from ledger_events e where e.stream_name = req.stream) as first
      from req join ledger_streams s on s.stream_name = req.stream
     where not exists (select 1 from positions p where p.stream_name = req.stream)
  )
  select req.ord::integer as ord, positions.stream_name is not null as ok,
         positions.first_global::text as first_global, positions.last_global::text as last_global,
         refused.actual::text as actual, refused.first::text as first,
         case when positions.stream_name is null
               and (refused.actual is distinct from req.known_revision
                    or refused.first is distinct from req.known_first) then
           (select coalesce(jsonb_agg(ledger_event_json(e) order by e.stream_position), '[]'::jsonb)
              from ledger_events e where e.stream_name = req.stream)
         end as current_events
    from req left join positions on positions.stream_name = req.stream
    left join refused on refused.ord = req.ord
   order by req.ord`;

/**
 * `ledger_create_streams(p_requests text)`: many `no_stream` appends to distinct streams in ONE
 * call (one transaction, one commit) — the group commit of claims. It produces exactly the rows
 * `ledger_append` would, global positions `(xid << 20) + n`; keep a batch far below 2^20 events.
 *
 * `p_requests`: JSON text `[{stream, streamId?, known?: {revision, first}, events: [{id, type,
 * data, metadata}]}]` with DISTINCT stream names. Stream rows are inserted in stream-name order
 * (`collate "C"`, as `ledger_append_batch` locks them), so concurrent batches cannot deadlock on
 * each other. Event ids are not checked for an idempotent retry: a reused id fails the call with
 * `23505`, and the caller replays each request through `ledger_append`.
 *
 * One row per request, in request order: `ord`, `ok`; when created, `first_global`/`last_global`;
 * when the stream exists, `actual` (null when the snapshot cannot see it yet: created by a
 * transaction that committed while this one waited), `first` and `current_events` — null when
 * `known` still describes the stream (stored events never change; truncation moves `first`).
 *
 * Errors: `23505`, `40P01` (a writer locking in another order), `22P02`/`22023` for bad JSON.
 */
export const LEDGER_CREATE_STREAMS_FUNCTION = setAppendFunction(
  'ledger_create_streams',
  `ord integer, ok boolean, first_global text, last_global text, actual text, first text,
               current_events jsonb`,
  CREATE_STREAMS_QUERY,
);
