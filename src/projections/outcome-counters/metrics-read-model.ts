import type { RecordedEvent } from '../../event-store/event-store.port.js';
import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';
import type { FeedChange, ReadModel, StoredChange, TableNames } from '../core/read-model.js';
import { type Column, upsertRows } from '../core/sql-rows.js';
import { isOperationEvent } from '../operation-views/operation-fold.js';
import { COUNTERS, type Counters, countersOf, weightOf, zeroCounters } from './metric-counters.js';
import { METRICS_FEED, readMetricsFeed } from './metrics-feed.js';

export { METRICS_FEED } from './metrics-feed.js';

/** Time buckets of the metrics read model (UTC); minutes so a short range charts as more than one bar. */
export type BucketKind = 'minute' | 'hour' | 'day';
export const BUCKET_KINDS: readonly BucketKind[] = ['minute', 'hour', 'day'];

const COLUMNS: readonly Column[] = [
  { name: 'tenant', type: 'text' },
  { name: 'action', type: 'text' },
  { name: 'bucket', type: 'text' },
  { name: 'bucket_start', type: 'timestamptz' },
  ...COUNTERS.map((c) => ({ name: c, type: 'bigint' })),
  { name: 'last_position', type: 'bigint' },
];
/** What the metrics feed shows of the last event counted in a bucket (nullable: added later). */
const FEED_COLUMNS: readonly Column[] = [
  { name: 'last_event', type: 'text' },
  { name: 'last_incremented', type: 'jsonb' },
];

interface Bucket {
  tenant: string;
  action: string;
  bucket: BucketKind;
  bucketStart: string;
  counters: Counters;
  position: bigint;
  lastEvent: string | null;
  incremented: readonly string[] | null;
}

/** Start of the UTC minute, hour or day containing `at` (ISO 8601). */
export function bucketStart(at: string, kind: BucketKind): string {
  const d = new Date(at);
  if (kind === 'day') d.setUTCHours(0, 0, 0, 0);
  else if (kind === 'hour') d.setUTCMinutes(0, 0, 0);
  else d.setUTCSeconds(0, 0);
  return d.toISOString();
}

const keyOf = (tenant: string, action: string, kind: string, start: string) =>
  JSON.stringify([tenant, action, kind, new Date(start).toISOString()]);

/**
 * The duplicate-prevented metrics ({@link COUNTERS}) per tenant, action and UTC minute, hour and
 * day of the event's `at`. Each bucket keeps the position of its last event counted, so a
 * re-applied event is skipped.
 */
export class MetricsReadModel implements ReadModel {
  readonly name = 'metrics';
  readonly tables = ['metrics'];
  readonly feeds = [METRICS_FEED];

  createTables(n: TableNames): string {
    return `
create table ${n.metrics} (
  ${COLUMNS.map((c) => `${c.name} ${c.type}${c.type === 'bigint' ? ' not null default 0' : ' not null'}`).join(',\n  ')},
  ${FEED_COLUMNS.map((c) => `${c.name} ${c.type}`).join(',\n  ')},
  primary key (tenant, action, bucket, bucket_start)
);
create index on ${n.metrics} (tenant, bucket, bucket_start);
`;
  }

  upgradeTables(n: TableNames): string {
    return `alter table ${n.metrics} ${FEED_COLUMNS.map((c) => `add column if not exists ${c.name} ${c.type}`).join(', ')};`;
  }

  readFeed(
    sql: SqlQueryable,
    _feed: string,
    tenant: string,
    after: bigint,
    limit: number,
  ): Promise<StoredChange[]> {
    return readMetricsFeed(sql, tenant, after, limit);
  }

  async apply(tx: SqlExecutor, events: readonly RecordedEvent[], n: TableNames): Promise<FeedChange[]> {
    const counted = events
      .map((event) => ({ event, counters: countersOf(event), d: event.data as Record<string, unknown> }))
      .filter(
        (c) =>
          c.counters.length > 0 &&
          isOperationEvent(c.event) &&
          typeof c.d.tenant === 'string' &&
          typeof c.d.at === 'string' &&
          !Number.isNaN(Date.parse(c.d.at)),
      );
    if (counted.length === 0) return [];
    const wanted = counted.flatMap(({ d }) =>
      BUCKET_KINDS.map((kind) => ({
        tenant: d.tenant as string,
        action: actionOf(d),
        bucket: kind,
        bucket_start: bucketStart(d.at as string, kind),
      })),
    );
    const buckets = await this.load(tx, n, wanted);
    const touched = new Map<string, Bucket>();
    const changes: FeedChange[] = [];
    for (const { event, counters, d } of counted) {
      const tenant = d.tenant as string;
      const action = actionOf(d);
      let counted = false;
      for (const kind of BUCKET_KINDS) {
        const start = bucketStart(d.at as string, kind);
        const key = keyOf(tenant, action, kind, start);
        const bucket = buckets.get(key) ?? {
          tenant,
          action,
          bucket: kind,
          bucketStart: start,
          counters: zeroCounters(),
          position: -1n,
          lastEvent: null,
          incremented: null,
        };
        if (event.globalPosition <= bucket.position) continue; // already counted
        for (const c of counters) bucket.counters[c] += weightOf(event);
        bucket.position = event.globalPosition;
        bucket.lastEvent = event.type;
        bucket.incremented = counters;
        buckets.set(key, bucket);
        touched.set(key, bucket);
        counted = true;
      }
      if (counted) changes.push({ feed: METRICS_FEED, position: event.globalPosition, tenant });
    }
    const rows = [...touched.values()].map((b) => ({
      tenant: b.tenant,
      action: b.action,
      bucket: b.bucket,
      bucket_start: b.bucketStart,
      ...b.counters,
      last_position: b.position.toString(),
      last_event: b.lastEvent,
      last_incremented: b.incremented,
    }));
    await upsertRows(
      tx,
      n.metrics!,
      [...COLUMNS, ...FEED_COLUMNS],
      ['tenant', 'action', 'bucket', 'bucket_start'],
      rows,
      'last_position',
    );
    return changes;
  }

  private async load(
    tx: SqlExecutor,
    n: TableNames,
    wanted: { tenant: string; action: string; bucket: string; bucket_start: string }[],
  ): Promise<Map<string, Bucket>> {
    const { rows } = await tx.queryPrepared<Record<string, string>>(
      `rm_load_${n.metrics}`,
      `select m.tenant, m.action, m.bucket, to_char(m.bucket_start at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as bucket_start,
              ${COUNTERS.map((c) => `m.${c}::text as ${c}`).join(', ')}, m.last_position::text as last_position
         from ${n.metrics} m
         join (select distinct * from jsonb_to_recordset($1::text::jsonb)
                 as x(tenant text, action text, bucket text, bucket_start timestamptz)) w
           on (m.tenant, m.action, m.bucket, m.bucket_start) = (w.tenant, w.action, w.bucket, w.bucket_start)`,
      [JSON.stringify(wanted)],
    );
    const buckets = new Map<string, Bucket>();
    for (const r of rows) {
      const counters = zeroCounters();
      for (const c of COUNTERS) counters[c] = Number(r[c]);
      buckets.set(keyOf(r.tenant!, r.action!, r.bucket!, r.bucket_start!), {
        tenant: r.tenant!,
        action: r.action!,
        bucket: r.bucket as BucketKind,
        bucketStart: r.bucket_start!,
        counters,
        position: BigInt(r.last_position!),
        lastEvent: null,
        incremented: null,
      });
    }
    return buckets;
  }
}

function actionOf(d: Record<string, unknown>): string {
  const key = d.key as { action?: unknown } | undefined;
  return typeof key?.action === 'string' ? key.action : '';
}
