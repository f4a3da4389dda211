/**
 * `ledger_append(p_stream text, p_expected text, p_events jsonb, p_stream_id uuid)`: the general
 * write path, one round trip per call.
 *
 * - `p_expected`: `'no_stream'`, `'any'` or a decimal revision (EventStoreDB semantics).
 * - `p_events`: `[{id, type, data, metadata}]`, non-empty, distinct UUID ids.
 * - returns one row `(ok, actual, next_revision, first_global, last_global, deduplicated,
 *   current_events)`; `actual` is the stream revision seen (-1 = no stream).
 *
 * Lock the stream row `FOR UPDATE` (a missing row is created with `on conflict do nothing`; the
 * loser waits for the winner's commit, then loops); then the idempotency check — after the lock,
 * so a retry racing its own original sees it committed; then the expected-revision check (a
 * mismatch is a row, not an exception, so a refused claim costs one round trip); then insert at
 * global positions `(xid << 20) + n`.
 *
 * Errors: `22023` malformed arguments, `LG001` event id conflict, `54000` more than 2^20 events in
 * one transaction, `23505` when a concurrent transaction inserted an id first (the caller retries
 * once) or the stream id names another stream.
 */
export const LEDGER_APPEND_FUNCTION = `
create or replace function ledger_append(
  p_stream text, p_expected text, p_events jsonb, p_stream_id uuid default null)
returns table (ok boolean, actual bigint, next_revision bigint, first_global bigint,
               last_global bigint, deduplicated boolean, current_events jsonb)
language plpgsql volatile
as $fn$
#variable_conflict use_column
declare
  v_count    integer;
  v_ids      uuid[];
  v_expected bigint;   -- the exact revision, or null for 'no_stream' / 'any'
  v_actual   bigint;   -- -1 = no stream
  v_exists   boolean;
  v_found    integer;
  v_first    bigint;
  v_base     bigint;
  v_next     bigint;
  v_inserted integer;
begin
  if p_stream is null or p_stream = '' then
    raise exception 'ledger_append: stream name must not be empty' using errcode = '22023';
  end if;
  if p_events is null or jsonb_typeof(p_events) <> 'array' or jsonb_array_length(p_events) = 0 then
    raise exception 'ledger_append: events must be a non-empty JSON array' using errcode = '22023';
  end if;
  v_count := jsonb_array_length(p_events);
  if p_expected in ('no_stream', 'any') then
    v_expected := null;
  elsif p_expected ~ '^[0-9]{1,18}$' then
    v_expected := p_expected::bigint;
  else
    raise exception 'ledger_append: expected revision must be no_stream, any or a revision >= 0, got %',
      coalesce(p_expected, 'null') using errcode = '22023';
  end if;
  select array_agg((t.e ->> 'id')::uuid order by t.ord) into v_ids
    from jsonb_array_elements(p_events) with ordinality as t(e, ord);
  if (select count(distinct u.id) from unnest(v_ids) as u(id)) <> v_count then
    raise exception 'ledger_append: event ids must be present and distinct within one append to %',
      p_stream using errcode = 'LG001';
  end if;

  -- Refusal without a row lock (the duplicate-claim path): a stream that exists can never again
  -- match no_stream, and a revision past the expected one can never come back to it, so these
  -- checks need no FOR UPDATE — unless the first id is already stored (a retry, decided below).
  if p_expected <> 'any' then
    select s.stream_position into v_actual from ledger_streams s where s.stream_name = p_stream;
    if found and (p_expected = 'no_stream' or v_actual > v_expected)
       and not exists (select 1 from ledger_events e where e.event_id = v_ids[1]) then
      return query select false, v_actual, null::bigint, null::bigint, null::bigint, false,
        (select coalesce(jsonb_agg(ledger_event_json(e) order by e.stream_position), '[]'::jsonb)
           from ledger_events e where e.stream_name = p_stream);
      return;
    end if;
  end if;

  loop
    select s.stream_position into v_actual
      from ledger_streams s where s.stream_name = p_stream for update;
    v_exists := found;
    if not v_exists then
      v_actual := -1;
    end if;

    -- idempotent retry: the same ids already stored as this very append. Only possible when the
    -- stream exists; for a new stream, ids used elsewhere fail the insert on the event_id key
    -- (same error class), so the first append of a stream — every first claim — skips the probe.
    v_found := 0;
    if v_exists then
      select count(*)::integer into v_found from ledger_events e where e.event_id = any (v_ids);
    end if;
    if v_found > 0 then
      select e.stream_position into v_first
        from ledger_events e where e.event_id = v_ids[1] and e.stream_name = p_stream;
      if v_found = v_count and v_first is not null and not exists (
           select 1 from unnest(v_ids) with ordinality as u(id, ord)
             join ledger_events e on e.event_id = u.id
            where e.stream_name <> p_stream or e.stream_position <> v_first + u.ord - 1) then
        return query select true, v_actual, v_first + v_count - 1,
          (select e.global_position from ledger_events e where e.event_id = v_ids[1]),
          (select e.global_position from ledger_events e where e.event_id = v_ids[v_count]),
          true, null::jsonb;
        return;
      end if;
      raise exception 'ledger_append: % of % event ids are already stored, but not as this append to %',
        v_found, v_count, p_stream using errcode = 'LG001';
    end if;

    if not v_exists then
      if v_expected is not null then
        return query select false, -1::bigint, null::bigint, null::bigint, null::bigint, false, '[]'::jsonb;
        return;
      end if;
      insert into ledger_streams (stream_name, stream_position, stream_id)
        values (p_stream, v_count - 1, p_stream_id)
        on conflict do nothing;
      get diagnostics v_inserted = row_count;
      exit when v_inserted = 1;
      -- Nothing inserted: a concurrent creator of this stream committed first (it may clash on
      -- stream_id before stream_name, so no conflict target), or the id names another stream.
      if not exists (select 1 from ledger_streams s where s.stream_name = p_stream) then
        raise exception 'ledger_append: stream id % already names another stream', p_stream_id
          using errcode = 'unique_violation', constraint = 'ledger_streams_stream_id_key';
      end if;
      continue; -- lock the committed row and check again
    end if;

    if p_expected = 'no_stream' or v_expected <> v_actual then
      return query select false, v_actual, null::bigint, null::bigint, null::bigint, false,
        (select coalesce(jsonb_agg(ledger_event_json(e) order by e.stream_position), '[]'::jsonb)
           from ledger_events e where e.stream_name = p_stream);
      return;
    end if;
    update ledger_streams s set stream_position = v_actual + v_count where s.stream_name = p_stream;
    exit;
  end loop;

  v_base := ledger_transaction_base_position();
  select coalesce(max(e.global_position) + 1, v_base) into v_next
    from ledger_events e where e.global_position >= v_base and e.global_position < v_base + 1048576;
  if v_next + v_count > v_base + 1048576 then
    raise exception 'ledger_append: more than 1048576 events in one transaction' using errcode = '54000';
  end if;
  insert into ledger_events (global_position, event_id, stream_name, stream_position, type, data, metadata)
  select v_next + t.ord - 1, (t.e ->> 'id')::uuid, p_stream, v_actual + t.ord, t.e ->> 'type',
         t.e -> 'data', coalesce(t.e -> 'metadata', '{}'::jsonb)
    from jsonb_array_elements(p_events) with ordinality as t(e, ord);
  return query select true, v_actual, v_actual + v_count, v_next, v_next + v_count - 1, false, null::jsonb;
end
$fn$;
`;
