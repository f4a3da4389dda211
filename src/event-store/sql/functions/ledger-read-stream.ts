/**
 * `ledger_read_stream(p_stream, p_from_revision)`: the stream's stored events from
 * `p_from_revision` on, in stream order, as `ledger_event_json` rows (column `event`).
 */
export const LEDGER_READ_STREAM_FUNCTION = `
create or replace function ledger_read_stream(p_stream text, p_from_revision bigint)
returns table (event jsonb)
language sql stable
as $$
  select ledger_event_json(e) from ledger_events e
  where e.stream_name = p_stream and e.stream_position >= p_from_revision
  order by e.stream_position
$$;
`;
