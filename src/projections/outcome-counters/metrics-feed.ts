import type { SqlQueryable } from '../../event-store/sql-executor.js';
import type { StoredChange } from '../core/read-model.js';
import { COUNTERS, presentCounters } from './metric-counters.js';

/** Feed of metrics updates: each hour bucket counted after a position, with its day bucket. */
export const METRICS_FEED = 'metrics';

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * The metrics feed of `tenant` after `after`: one `metrics` entry per hour bucket that counted an
 * event after it, with its day's counters too (an event moves both together).
 */
export async function readMetricsFeed(
  sql: SqlQueryable,
  tenant: string,
  after: bigint,
  limit: number,
): Promise<StoredChange[]> {
  const { rows } = await sql.query<Record<string, unknown>>(
    `select h.action, to_char(h.bucket_start at time zone 'UTC', ${ISO}) as hour_start,
            h.last_position::text as last_position, h.last_event, h.last_incremented,
            ${COUNTERS.map((c) => `h.${c}::text as h_${c}, d.${c}::text as d_${c}`).join(', ')},
            to_char(d.bucket_start at time zone 'UTC', ${ISO}) as day_start
       from ledger_rm_metrics h
       left join ledger_rm_metrics d
         on d.tenant = h.tenant and d.action = h.action and d.bucket = 'day'
        and d.bucket_start = date_trunc('day', h.bucket_start at time zone 'UTC') at time zone 'UTC'
      where h.tenant = $1 and h.bucket = 'hour' and h.last_position > $2::text::bigint
      order by h.last_position limit $3`,
    [tenant, after.toString(), limit],
  );
  return rows.map((r) => {
    const hour: Record<string, unknown> = {};
    const day: Record<string, unknown> = {};
    for (const c of COUNTERS) {
      hour[c] = r[`h_${c}`];
      day[c] = r[`d_${c}`];
    }
    return {
      feed: METRICS_FEED,
      tenant,
      position: BigInt(String(r.last_position)),
      type: 'metrics',
      data: {
        action: r.action,
        event: r.last_event ?? null,
        incremented: r.last_incremented ?? [],
        hour: { bucketStart: r.hour_start, counters: presentCounters(hour) },
        day: { bucketStart: r.day_start, counters: presentCounters(day) },
      },
    };
  });
}
