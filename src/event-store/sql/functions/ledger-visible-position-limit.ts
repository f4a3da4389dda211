/**
 * `ledger_visible_position_limit()`: exclusive upper bound of what a reader may return, the
 * lowest transaction id still running in this database (else the snapshot's `xmax`) `<< 20`.
 *
 * Every transaction with a lower id has ended before the snapshot, and every event below the bound
 * was written by such a transaction, so an event that is not visible now can never later appear
 * below the bound: a checkpoint never skips a late commit. (With a plain sequence this fails: a
 * transaction can get its id first and its sequence value second, and commit below a checkpoint
 * already handed out.)
 *
 * Transaction ids are server-wide, so `pg_snapshot_xmin` alone waits for transactions of every
 * database. A transaction of another database can never write here, so a running id that
 * `pg_stat_get_activity` (the function behind `pg_stat_activity`) shows in another database is
 * left out: a backend's database never changes, and its entry is read before its transaction id.
 * One whose database is unknown (hidden, prepared) still holds the bound back (PostgreSQL docs,
 * "Transaction ID and Snapshot Information Functions"). Ids are compared on their low 32 bits
 * (running ids are within 2^31 of each other). The lookup copies the server's activity table, so
 * it runs only while some transaction is running (`xmin < xmax`).
 */
export const LEDGER_VISIBLE_POSITION_LIMIT_FUNCTION = `
create or replace function ledger_visible_position_limit() returns bigint
language sql stable
as $$
  select case
    when pg_snapshot_xmin(snap) = pg_snapshot_xmax(snap) then pg_snapshot_xmax(snap)::text::bigint << 20
    else coalesce(
      (select min(r::text::bigint) from pg_snapshot_xip(snap) r
        where r::text::bigint % 4294967296 not in (
          select a.backend_xid::text::bigint from pg_stat_get_activity(null) a
           where a.backend_xid is not null
             and a.datid <> (select oid from pg_database where datname = current_database()))),
      pg_snapshot_xmax(snap)::text::bigint) << 20
  end
  from pg_current_snapshot() snap
$$;
`;
