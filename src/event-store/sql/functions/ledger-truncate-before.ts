/**
 * `ledger_truncate_before(p_stream, p_revision)`: deletes the stream's events below `p_revision`
 * (EventStoreDB's `$tb`); the stream keeps its revision. Returns the number of events deleted.
 */
export const LEDGER_TRUNCATE_BEFORE_FUNCTION = `
create or replace function ledger_truncate_before(p_stream text, p_revision bigint) returns bigint
language plpgsql volatile
as $fn$
declare
  v_deleted bigint;
begin
  delete from ledger_events e where e.stream_name = p_stream and e.stream_position < p_revision;
  get diagnostics v_deleted = row_count;
  return v_deleted;
end
$fn$;
`;
