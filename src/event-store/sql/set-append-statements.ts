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
 * Creates streams that must not exist yet (expected revision `no_stream`). Per request, in request
 * order, one row: `ord` (1-based), `ok`; when created, `first_global`/`last_global`; when the
 * stream exists, `actual` (its revision, or null when the statement's snapshot cannot see it yet:
 * it was created by a transaction that committed while this statement waited) and `current_events`
 * (`ledger_event_json` of its events, in order), so a refused claim costs no extra read.
 */
export const CREATE_STREAMS_STATEMENT = `
with req as (
  select r.ord, r.value ->> 'stream' as stream, r.value -> 'events' as events,
         (r.value ->> 'streamId')::uuid as stream_id
    from jsonb_array_elements($1::text::jsonb) with ordinality as r(value, ord)
), created as (
  insert into ledger_streams (stream_name, stream_position, stream_id)
  select req.stream, jsonb_array_length(req.events) - 1, req.stream_id from req
   order by req.stream collate "C"
  on conflict do nothing
  returning stream_name
), base as (
  select ledger_transaction_base_position() as position
), next as materialized (
  select coalesce((select max(e.global_position) + 1 from ledger_events e
                    where e.global_position >= base.position
                      and e.global_position < base.position + 1048576), base.position) as position
    from base
), ev as (
  select req.stream, t.e, t.i, row_number() over (order by req.ord, t.i) as n
    from req join created on created.stream_name = req.stream
   cross join jsonb_array_elements(req.events) with ordinality as t(e, i)
), inserted as (
  insert into ledger_events (global_position, event_id, stream_name, stream_position, type, data, metadata)
  select next.position + ev.n - 1, (ev.e ->> 'id')::uuid, ev.stream, ev.i - 1, ev.e ->> 'type',
         ev.e -> 'data', coalesce(ev.e -> 'metadata', '{}'::jsonb)
    from ev cross join next
  returning stream_name, global_position
), positions as (
  select stream_name, min(global_position) as first_global, max(global_position) as last_global
    from inserted group by stream_name
)
select req.ord::integer as ord, positions.stream_name is not null as ok,
       positions.first_global::text as first_global, positions.last_global::text as last_global,
       case when positions.stream_name is null then
         (select s.stream_position::text from ledger_streams s where s.stream_name = req.stream)
       end as actual,
       case when positions.stream_name is null then
         (select coalesce(jsonb_agg(ledger_event_json(e) order by e.stream_position), '[]'::jsonb)
            from ledger_events e where e.stream_name = req.stream)
       end as current_events
  from req left join positions on positions.stream_name = req.stream
 order by req.ord`;

/** A row of {@link CREATE_STREAMS_STATEMENT}. */
export interface CreateStreamsRow {
  readonly ord: number;
  readonly ok: boolean;
  readonly first_global: string | null;
  readonly last_global: string | null;
  readonly actual: string | null;
  readonly current_events: unknown[] | null;
}

/**
 * Appends without a revision check (expected revision `any`): creates each stream or moves its
 * revision on (`on conflict … do update`, which locks the row like `ledger_append`'s
 * `FOR UPDATE`). Requests carry no stream id. Per request, in request order: `ord` (1-based),
 * `next_revision` (the stream's revision after the append) and `first_global`; the request's
 * events are at consecutive stream and global positions from there.
 */
export const APPEND_ANY_STATEMENT = `
with req as (
  select r.ord, r.value ->> 'stream' as stream, r.value -> 'events' as events,
         jsonb_array_length(r.value -> 'events') as count
    from jsonb_array_elements($1::text::jsonb) with ordinality as r(value, ord)
), moved as (
  insert into ledger_streams as s (stream_name, stream_position)
  select req.stream, req.count - 1 from req order by req.stream collate "C"
  on conflict (stream_name) do update set stream_position = s.stream_position + excluded.stream_position + 1
  returning s.stream_name, s.stream_position
), base as (
  select ledger_transaction_base_position() as position
), next as materialized (
  select coalesce((select max(e.global_position) + 1 from ledger_events e
                    where e.global_position >= base.position
                      and e.global_position < base.position + 1048576), base.position) as position
    from base
), ev as (
  select req.ord, req.stream, moved.stream_position - req.count as before, t.e, t.i,
         row_number() over (order by req.ord, t.i) as n
    from req join moved on moved.stream_name = req.stream
   cross join jsonb_array_elements(req.events) with ordinality as t(e, i)
), inserted as (
  insert into ledger_events (global_position, event_id, stream_name, stream_position, type, data, metadata)
  select next.position + ev.n - 1, (ev.e ->> 'id')::uuid, ev.stream, ev.before + ev.i, ev.e ->> 'type',
         ev.e -> 'data', coalesce(ev.e -> 'metadata', '{}'::jsonb)
    from ev cross join next
  returning stream_name, global_position
), positions as (
  select stream_name, min(global_position) as first_global from inserted group by stream_name
)
select req.ord::integer as ord, moved.stream_position::text as next_revision,
       positions.first_global::text as first_global
  from req join moved on moved.stream_name = req.stream
  join positions on positions.stream_name = req.stream
 order by req.ord`;

/** A row of {@link APPEND_ANY_STATEMENT}. */
export interface AppendAnyRow {
  readonly ord: number;
  readonly next_revision: string;
  readonly first_global: string;
}
