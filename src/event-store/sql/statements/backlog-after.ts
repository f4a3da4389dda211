import type { SqlStatement } from './sql-statement.js';

/**
 * The backlog of a `readAll` reader at checkpoint `$1`: one row `{n, s}` — the events below the
 * readers' high-water mark counted up to `$2`, and the oldest one's age in seconds (null: none).
 */
export const BACKLOG_AFTER: SqlStatement = {
  name: 'ledger_backlog_after',
  text: `with lim as (select ledger_visible_position_limit() as l)
       select (select count(*) from (select 1 from ledger_events e, lim
                 where e.global_position > $1::text::bigint and e.global_position < lim.l limit $2) x)::int as n,
              (select extract(epoch from (now() - e.recorded_at))::float8 from ledger_events e, lim
                 where e.global_position > $1::text::bigint and e.global_position < lim.l
                 order by e.global_position limit 1) as s`,
};
