/**
 * `ledger_truncate_before(p_stream, p_revision)`: deletes the stream's events below `p_revision`
 * (retention compaction; EventStoreDB's `$tb` stream metadata is the same idea). The stream keeps
 * its revision counter, so expected-revision appends go on as before; global positions of the
 * remaining events do not change. Returns the number of events deleted.
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
