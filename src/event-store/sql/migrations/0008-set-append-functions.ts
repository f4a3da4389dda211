import type { Migration } from '../migration.js';

/**
 * `ledger_create_streams` and `ledger_append_any`: many appends to distinct streams in ONE call
 * (one round trip, one transaction, one commit), the fast path of group commit for the two most
 * frequent appends — a claim's first event (`no_stream`) and audit events (`any`). Each is one
 * set-based statement inside PL/pgSQL, so its plan is cached per connection (PGlite has no named
 * prepared statements, and planning this statement cost more than running it for one claim). They
 * produce exactly the rows `ledger_append` (migration 3) would: stream rows, events at consecutive
 * stream positions, global positions `(xid << 20) + n` after any this transaction already used.
 *
 * Both take `p_requests` = JSON text `[{stream, streamId?, known?, onlyIf?, events: [{id, type,
 * data, metadata}]}]` with DISTINCT stream names (the caller guarantees it; two requests for one
 * stream would collide), and insert stream rows in stream-name order (`collate "C"`, as
 * `ledger_append_batch` locks them), so concurrent batches cannot deadlock on each other. Neither
 * checks event ids for an idempotent retry: a reused id fails the call with `23505` on
 * `ledger_events_event_id_key`, and the caller then replays each request through `ledger_append`,
 * which deduplicates or reports the conflict. Keep a batch far below 2^20 events.
 *
 * The CTEs `base` and `next` give the first free global position of the transaction
 * (`ledger_transaction_base_position()` written out: a SQL function call is parsed and planned on
 * every execution). `next` is materialized so its probe runs once, not once per inserted row (each
 * probe would walk the index entries just added); it is read through a scalar subquery, which runs
 * on first use, so a call that inserts nothing takes no transaction id (no commit record, no WAL
 * flush for a batch of refusals).
 *
 * `ledger_create_streams` (expected revision `no_stream`), one row per request in request order:
 * `ord` (1-based), `ok`; when created, `first_global`/`last_global`; when the stream exists,
 * `actual` (its revision, or null when the statement's snapshot cannot see it yet: it was created
 * by a transaction that committed while this one waited), `first` (position of its first stored
 * event) and `current_events` (`ledger_event_json` of its events, in order) — unless the request's
 * `known: {revision, first}` still describes the stream, when `current_events` is null and the
 * caller uses its own copy (stored events never change; only truncation removes some, moving
 * `first`).
 *
 * `ledger_append_any` (expected revision `any`): creates each stream or moves its revision on
 * (`on conflict … do update`, which locks the row like `ledger_append`'s `FOR UPDATE`). A request
 * may carry `onlyIf: {stream, revision}`: written only if that other stream is at that revision,
 * checked on the row's latest committed version under `FOR SHARE` (held to commit, so no append to
 * it slips in between; those rows are locked first, in name order). One row per request: `ord`;
 * when written, `next_revision` (the stream's revision after it) and `first_global` (its events are
 * at consecutive stream and global positions from there); when its condition failed, both null and
 * `condition_actual` (that stream's revision, or null when it does not exist).
 *
 * Errors: `23505` (event id, or a stream id naming another stream), `40P01` (a deadlock with a
 * writer locking in another order), `22P02`/`22023` for malformed JSON.
 */
/** The CTEs `base` and `next` (see above), shared by both functions. */
const NEXT_POSITION = `base as (
    select (pg_current_xact_id()::text::bigint) << 20 as position
  ), next as materialized (
    select coalesce((select max(e.global_position) + 1 from ledger_events e
                      where e.global_position >= base.position
                        and e.global_position < base.position + 1048576), base.position) as position
      from base
  )`;

export const setAppendFunctionsMigration: Migration = {
  version: 8,
  name: 'set-based append functions',
  sql: `
create function ledger_create_streams(p_requests text)
returns table (ord integer, ok boolean, first_global text, last_global text, actual text, first text,
               current_events jsonb)
language plpgsql volatile
as $fn$
#variable_conflict use_column
begin
  return query
  with req as (
    select r.ord, r.value ->> 'stream' as stream, r.value -> 'events' as events,
           (r.value ->> 'streamId')::uuid as stream_id,
           (r.value #>> '{known,revision}')::bigint as known_revision,
           (r.value #>> '{known,first}')::bigint as known_first
      from jsonb_array_elements(p_requests::jsonb) with ordinality as r(value, ord)
  ), created as (
    insert into ledger_streams (stream_name, stream_position, stream_id)
    select req.stream, jsonb_array_length(req.events) - 1, req.stream_id from req
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
   order by req.ord;
end
$fn$;

create function ledger_append_any(p_requests text)
returns table (ord integer, next_revision text, first_global text, condition_actual text)
language plpgsql volatile
as $fn$
#variable_conflict use_column
begin
  return query
  with req as (
    select r.ord, r.value ->> 'stream' as stream, r.value -> 'events' as events,
           jsonb_array_length(r.value -> 'events') as count,
           r.value #>> '{onlyIf,stream}' as cond_stream,
           (r.value #>> '{onlyIf,revision}')::bigint as cond_revision
      from jsonb_array_elements(p_requests::jsonb) with ordinality as r(value, ord)
  ), held as materialized (
    select s.stream_name, s.stream_position from ledger_streams s
     where s.stream_name in (select req.cond_stream from req where req.cond_stream is not null)
     order by s.stream_name collate "C"
     for share
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
   order by req.ord;
end
$fn$;
`,
};
