import { NEXT_POSITION } from './set-append-parts.js';

/**
 * `ledger_append_revisions(p_streams text[], p_expected bigint[], p_event_requests integer[],
 * p_ids uuid[], p_types text[], p_data text[], p_metadata text[])`: many appends, each expecting
 * an exact revision of a distinct stream, in ONE call (one round trip, one transaction, one
 * commit) — the group commit of follow-ups (sql/revision-appends.ts). Set-based: one statement
 * locks the streams, one checks them all and writes every accepted append; no per-append call.
 *
 * Requests are positional arrays: request `i` (0-based) is `p_streams[i + 1]` at
 * `p_expected[i + 1]`; its events are the elements `j` of the event arrays with
 * `p_event_requests[j] = i`, in array order (`p_data`, `p_metadata`: JSON object text). Stream
 * names must be distinct (the caller guarantees it).
 *
 * Per request, the answer `ledger_append` (sql/functions/ledger-append.ts) gives it alone:
 * - the stream rows at or below their expected revision are locked `FOR UPDATE` in stream-name
 *   order (`collate "C"`, as `ledger_append_batch` and `ledger_create_streams` take them, so
 *   batches cannot deadlock on each other); a stream already past it is refused without a lock
 *   (it can never come back). The check then runs on a snapshot taken after the locks, so a
 *   refusal's `actual` and `current_events` are the stream as committed.
 * - revision matches: the stream row moves to `expected + count`, events are inserted at stream
 *   positions `expected + 1…` and global positions `(xid << 20) + n` after any this transaction
 *   used (consecutive per request, requests in array order);
 * - revision differs (or no stream: `actual` -1, `current_events` `[]`): `ok = false` with the
 *   stream's events, nothing written;
 * - `ok` null (undecided: the caller replays it through `ledger_append`): one of its ids is
 *   already stored (an idempotent retry or an id conflict, which `ledger_append` tells apart), or
 *   its stream changed between the check and the write (a stream created meanwhile).
 *
 * One row per request, in request order: `request_index` (0-based) and `ledger_append`'s columns
 * (`deduplicated` is always false here). Errors: `23505` on `ledger_events_event_id_key` (an id
 * repeated within the call, or inserted concurrently), `40P01`; the caller replays each request
 * through `ledger_append` then. Keep a call far below 2^20 events.
 *
 * `plan_cache_mode = force_generic_plan`: the planner sizes `unnest` of an array parameter from
 * each call's array, so a custom plan always looks cheaper than the generic one and PL/pgSQL
 * would plan the statements again on every call (costing more than running them); the generic
 * plan (streams and events looked up by their unique indexes) fits every batch size.
 */
export const LEDGER_APPEND_REVISIONS_FUNCTION = `
create or replace function ledger_append_revisions(
  p_streams text[], p_expected bigint[], p_event_requests integer[], p_ids uuid[], p_types text[],
  p_data text[], p_metadata text[])
returns table (request_index integer, ok boolean, actual bigint, next_revision bigint,
               first_global bigint, last_global bigint, deduplicated boolean, current_events jsonb)
language plpgsql volatile
set plan_cache_mode = force_generic_plan
as $fn$
#variable_conflict use_column
begin
  perform 1
     from ledger_streams s
     join unnest(p_streams, p_expected) as r(stream, expected) on s.stream_name = r.stream
    where s.stream_position <= r.expected
    order by s.stream_name collate "C"
      for update of s;

  return query
  with req as (
    select (r.ord - 1)::integer as idx, r.stream, r.expected
      from unnest(p_streams, p_expected) with ordinality as r(stream, expected, ord)
  ), ev as (
    select e.req, e.id, e.type, e.data, e.metadata, e.n
      from unnest(p_event_requests, p_ids, p_types, p_data, p_metadata)
           with ordinality as e(req, id, type, data, metadata, n)
  ), counts as (
    select ev.req, count(*)::integer as count from ev group by ev.req
  ), reused as (
    select distinct ev.req from ev join ledger_events e on e.event_id = ev.id
  ), cur as (
    select req.idx, req.stream, req.expected, counts.count, s.stream_position as actual,
           reused.req is not null as reused
      from req
      join counts on counts.req = req.idx
      left join ledger_streams s on s.stream_name = req.stream
      left join reused on reused.req = req.idx
  ), moved as (
    update ledger_streams s set stream_position = cur.expected + cur.count
      from cur
     where s.stream_name = cur.stream and s.stream_position = cur.expected
       and cur.actual = cur.expected and not cur.reused
    returning s.stream_name
  ), ${NEXT_POSITION}, numbered as (
    select cur.stream, cur.expected, ev.id, ev.type, ev.data, ev.metadata,
           row_number() over (order by cur.idx, ev.n) as g,
           row_number() over (partition by cur.idx order by ev.n) as p
      from cur
      join moved on moved.stream_name = cur.stream
      join ev on ev.req = cur.idx
  ), inserted as (
    insert into ledger_events (global_position, event_id, stream_name, stream_position, type, data, metadata)
    select (select next.position from next) + numbered.g - 1, numbered.id, numbered.stream,
           numbered.expected + numbered.p, numbered.type, numbered.data::jsonb,
           coalesce(numbered.metadata::jsonb, '{}'::jsonb)
      from numbered
    returning stream_name, global_position
  ), positions as (
    select inserted.stream_name, min(inserted.global_position) as first_global,
           max(inserted.global_position) as last_global
      from inserted group by inserted.stream_name
  )
  select cur.idx,
         case when positions.stream_name is not null then true
              when cur.reused or cur.actual = cur.expected then null
              else false end,
         coalesce(cur.actual, -1),
         case when positions.stream_name is not null then cur.expected + cur.count end,
         positions.first_global, positions.last_global, false,
         case when positions.stream_name is null and not cur.reused
                   and cur.actual is distinct from cur.expected then
           (select coalesce(jsonb_agg(ledger_event_json(e) order by e.stream_position), '[]'::jsonb)
              from ledger_events e where e.stream_name = cur.stream)
         end
    from cur
    left join positions on positions.stream_name = cur.stream
   order by cur.idx;
end
$fn$;
`;
