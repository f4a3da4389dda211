/**
 * `ledger_visible_position_limit()`: exclusive upper bound of what a reader may return,
 * `pg_snapshot_xmin(pg_current_snapshot()) << 20`. Every transaction with a lower id has ended
 * before the snapshot, and every event below the bound was written by such a transaction, so an
 * event that is not visible now can never later appear below the bound: a checkpoint never skips
 * a late commit. (With a plain sequence this fails: a transaction can get its id first and its
 * sequence value second, and commit below a checkpoint already handed out.)
 */
export const LEDGER_VISIBLE_POSITION_LIMIT_FUNCTION = `
create or replace function ledger_visible_position_limit() returns bigint
language sql stable
as $$ select (pg_snapshot_xmin(pg_current_snapshot())::text::bigint) << 20 $$;
`;
