/**
 * Set-based append statements: many appends to distinct streams in ONE statement (one round
 * trip, one transaction, one commit), for group commit. They are the fast path of the two most
 * frequent appends — a claim's first event (`no_stream`) and audit events (`any`) — and produce
 * exactly the rows `ledger_append` (migration 3) would: stream rows, events at consecutive stream
 * positions, global positions `(xid << 20) + n` after any this transaction already used.
 *
 * Both take `$1` = JSON text `[{stream, streamId?, events: [{id, type, data, metadata}]}]` with
 * DISTINCT stream names (the caller guarantees it; two requests for one stream would collide), and
 * insert stream rows in stream-name order (`collate "C"`, as `ledger_append_batch` locks them), so
 * concurrent batches cannot deadlock on each other. Neither checks event ids for an idempotent
 * retry: a reused id fails the statement with `23505` on `ledger_events_event_id_key`, and the
 * caller then replays each request through `ledger_append`, which deduplicates or reports the
 * conflict. Errors: `23505` (event id, or a stream id naming another stream) and connection
 * errors. Keep a batch far below 2^20 events (the caller caps it), the positions one transaction has.
 */

/**
 * CTEs `base` (`ledger_transaction_base_position()` of migration 2, written out: a SQL function
 * call is parsed and planned again on every execution) and `next`, the first free global position
 * of this transaction. `next` is materialized so its probe runs once, not once per inserted row
 * (each probe would walk the index entries the statement has just added); read it through a
 * scalar subquery, which runs on first use, so a statement that inserts nothing takes no
 * transaction id.
 */
const NEXT_POSITION = `base as (
  select (pg_current_xact_id()::text::bigint) << 20 as position
), next as materialized (
  select coalesce((select max(e.global_position) + 1 from ledger_events e
                    where e.global_position >= base.position
                      and e.global_position < base.position + 1048576), base.position) as position
    from base
)`;

/**
 * Creates streams that must not exist yet (expected revision `no_stream`). Per request, in request
 * order, one row: `ord` (1-based), `ok`; when created, `first_global`/`last_global`; when the
 * stream exists, `actual` (its revision, or null when the statement's snapshot cannot see it yet:
 * it was created by a transaction that committed while this statement waited), `first` (the
 * position of its first stored event) and `current_events` (`ledger_event_json` of its events, in
 * order), so a refused claim costs no extra read. A request may carry `known: {revision, first}`,
 * the stream as the caller already holds it: when the stream still is exactly that, `current_events`
 * is null and the caller uses its copy (stored events never change; only truncation removes some,
 * which moves `first`). The
 * transaction id (the base of the positions) is taken only when an event is inserted — an initplan
 * runs on first use — so a batch of refusals writes no commit record and waits for no WAL flush.
 */
export const CREATE_STREAMS_STATEMENT = `
with req as (
  select r.ord, r.value ->> 'stream' as stream, r.value -> 'events' as events,
         (r.value ->> 'streamId')::uuid as stream_id,
         (r.value #>> '{known,revision}')::bigint as known_revision,
         (r.value #>> '{known,first}')::bigint as known_first
    from jsonb_array_elements($1::text::jsonb) with ordinality as r(value, ord)
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
 order by req.ord`;

/** A row of {@link CREATE_STREAMS_STATEMENT}. */
export interface CreateStreamsRow {
  readonly ord: number;
  readonly ok: boolean;
  readonly first_global: string | null;
  readonly last_global: string | null;
  readonly actual: string | null;
  readonly first: string | null;
  readonly current_events: unknown[] | null;
}

/**
 * Appends without a revision check (expected revision `any`): creates each stream or moves its
 * revision on (`on conflict … do update`, which locks the row like `ledger_append`'s
 * `FOR UPDATE`). Requests carry no stream id. A request may carry `onlyIf: {stream, revision}`:
 * it is written only if that other stream is at that revision, checked on the row's latest
 * committed version under `FOR SHARE` (held to commit, so no append to it can slip in between;
 * those rows are locked first, in name order, before any written stream). Per request, in request
 * order: `ord` (1-based); when written, `next_revision` (the stream's revision after the append)
 * and `first_global` (the request's events are at consecutive stream and global positions from
 * there); when its condition failed, both null and `condition_actual` (that stream's revision, or
 * null when it does not exist).
 */
export const APPEND_ANY_STATEMENT = `
with req as (
  select r.ord, r.value ->> 'stream' as stream, r.value -> 'events' as events,
         jsonb_array_length(r.value -> 'events') as count,
         r.value #>> '{onlyIf,stream}' as cond_stream,
         (r.value #>> '{onlyIf,revision}')::bigint as cond_revision
    from jsonb_array_elements($1::text::jsonb) with ordinality as r(value, ord)
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
 order by req.ord`;

/** A row of {@link APPEND_ANY_STATEMENT}. */
export interface AppendAnyRow {
  readonly ord: number;
  readonly next_revision: string | null;
  readonly first_global: string | null;
  readonly condition_actual: string | null;
}
