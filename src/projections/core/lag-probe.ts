import type { EventStore } from '../../event-store/event-store.port.js';
import type { SqlQueryable } from '../../event-store/sql-executor.js';

/**
 * How far a read model is behind the event store: `events` committed after its checkpoint
 * (counted up to `cap`; `capped` when there are more) and `seconds` since the oldest of them was
 * recorded (0 when none).
 */
export interface Lag {
  readonly events: number;
  readonly seconds: number;
  readonly capped: boolean;
}

/** Measures the {@link Lag} of a checkpoint. */
export interface LagProbe {
  measure(checkpoint: bigint): Promise<Lag>;
}

/** Events counted at most per measurement. */
export const LAG_COUNT_CAP = 100_000;

/**
 * {@link LagProbe} for the SQL event store: counts `ledger_events` after the checkpoint below the
 * readers' high-water mark (an index range scan) and ages the oldest on the database clock.
 */
export class SqlLagProbe implements LagProbe {
  constructor(
    private readonly sql: SqlQueryable,
    private readonly cap = LAG_COUNT_CAP,
  ) {}

  async measure(checkpoint: bigint): Promise<Lag> {
    const { rows } = await this.sql.query<{ n: number; s: number | string | null }>(
      `with lim as (select ledger_visible_position_limit() as l)
       select (select count(*) from (select 1 from ledger_events e, lim
                 where e.global_position > $1::text::bigint and e.global_position < lim.l limit $2) x)::int as n,
              (select extract(epoch from (now() - e.recorded_at))::float8 from ledger_events e, lim
                 where e.global_position > $1::text::bigint and e.global_position < lim.l
                 order by e.global_position limit 1) as s`,
      [checkpoint.toString(), this.cap + 1],
    );
    const n = Number(rows[0]?.n ?? 0);
    const s = rows[0]?.s;
    return {
      events: Math.min(n, this.cap),
      capped: n > this.cap,
      seconds: s == null ? 0 : Math.max(0, Number(s)),
    };
  }
}

/** {@link LagProbe} for any {@link EventStore}: reads up to `cap` events after the checkpoint. */
export class ReadAllLagProbe implements LagProbe {
  constructor(
    private readonly store: EventStore,
    private readonly cap = 10_000,
  ) {}

  async measure(checkpoint: bigint): Promise<Lag> {
    const events = await this.store.readAll(checkpoint, this.cap + 1);
    const oldest = events[0];
    return {
      events: Math.min(events.length, this.cap),
      capped: events.length > this.cap,
      seconds: oldest ? Math.max(0, (Date.now() - oldest.recordedAt.getTime()) / 1000) : 0,
    };
  }
}
