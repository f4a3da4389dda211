/**
 * `ledger_event_json(e ledger_events)`: one event as `RecordedEventJson` (positions as decimal
 * strings: they exceed 2^53 on old clusters).
 */
export const LEDGER_EVENT_JSON_FUNCTION = `
create or replace function ledger_event_json(e ledger_events) returns jsonb
language sql stable
as $$
  select jsonb_build_object(
    'id', e.event_id,
    'type', e.type,
    'streamName', e.stream_name,
    'streamPosition', e.stream_position::text,
    'globalPosition', e.global_position::text,
    'data', e.data,
    'metadata', e.metadata,
    'recordedAt', to_char(e.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
$$;
`;
