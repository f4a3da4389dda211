/**
 * `ledger_read_all(p_after, p_limit)`: up to `p_limit` events after global position `p_after`,
 * in global order, below `ledger_visible_position_limit()` (computed once per call; a reader lags,
 * never skips), as `ledger_event_json` rows (column `event`).
 */
export const LEDGER_READ_ALL_FUNCTION = `
create or replace function ledger_read_all(p_after bigint, p_limit integer)
returns table (event jsonb)
language sql stable
as $$
  select ledger_event_json(e) from ledger_events e
  where e.global_position > p_after and e.global_position < (select ledger_visible_position_limit())
  order by e.global_position
  limit p_limit
$$;
`;
