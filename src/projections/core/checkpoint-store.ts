import type { SqlExecutor, SqlQueryable } from '../../event-store/sql-executor.js';

/** The stored state of one read model (a row of `ledger_projections`). */
export interface ProjectionRecord {
  readonly name: string;
  /** Checkpoint: global position of the last applied event; -1n before the first. */
  readonly position: bigint;
  /** `recordedAt` of the event at {@link position}; null before the first. */
  readonly lastEventAt: Date | null;
  /** Generation of the live tables (the views point at them). */
  readonly generation: number;
  readonly holder: string | null;
  readonly holderState: string | null;
  readonly holderSince: Date | null;
  readonly heartbeatAt: Date | null;
  /** Generation being built in shadow tables, or null. */
  readonly rebuildGeneration: number | null;
  /** The shadow tables' checkpoint (-1n at the start), or null. */
  readonly rebuildPosition: bigint | null;
  readonly rebuildRequestedAt: Date | null;
  readonly rebuildRequestedBy: string | null;
  readonly lastRebuildAt: Date | null;
  /** Feed changes at or before this position were pruned (-1n: none). */
  readonly changesPrunedThrough: bigint;
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
}

const COLUMNS = `name, position::text as position, last_event_at, generation, holder, holder_state,
  holder_since, heartbeat_at, rebuild_generation, rebuild_position::text as rebuild_position,
  rebuild_requested_at, rebuild_requested_by, last_rebuild_at,
  changes_pruned_through::text as changes_pruned_through, last_error, last_error_at`;

interface Row {
  name: string;
  position: string;
  last_event_at: Date | string | null;
  generation: number;
  holder: string | null;
  holder_state: string | null;
  holder_since: Date | string | null;
  heartbeat_at: Date | string | null;
  rebuild_generation: number | null;
  rebuild_position: string | null;
  rebuild_requested_at: Date | string | null;
  rebuild_requested_by: string | null;
  last_rebuild_at: Date | string | null;
  changes_pruned_through: string;
  last_error: string | null;
  last_error_at: Date | string | null;
}

const date = (v: Date | string | null): Date | null => (v === null ? null : new Date(v));

function toRecord(row: Row): ProjectionRecord {
  return {
    name: row.name,
    position: BigInt(row.position),
    lastEventAt: date(row.last_event_at),
    generation: Number(row.generation),
    holder: row.holder,
    holderState: row.holder_state,
    holderSince: date(row.holder_since),
    heartbeatAt: date(row.heartbeat_at),
    rebuildGeneration: row.rebuild_generation === null ? null : Number(row.rebuild_generation),
    rebuildPosition: row.rebuild_position === null ? null : BigInt(row.rebuild_position),
    rebuildRequestedAt: date(row.rebuild_requested_at),
    rebuildRequestedBy: row.rebuild_requested_by,
    lastRebuildAt: date(row.last_rebuild_at),
    changesPrunedThrough: BigInt(row.changes_pruned_through),
    lastError: row.last_error,
    lastErrorAt: date(row.last_error_at),
  };
}

/** Reads and writes `ledger_projections`, on the executor given (the projector's transaction). */
export const checkpointStore = {
  /** The row of `name`, or null when the read model was never installed. */
  async load(sql: SqlQueryable, name: string): Promise<ProjectionRecord | null> {
    const { rows } = await sql.query<Row>(`select ${COLUMNS} from ledger_projections where name = $1`, [
      name,
    ]);
    return rows[0] ? toRecord(rows[0]) : null;
  },

  /** Every read model's row, by name. */
  async loadAll(sql: SqlQueryable): Promise<ProjectionRecord[]> {
    const { rows } = await sql.query<Row>(`select ${COLUMNS} from ledger_projections order by name`);
    return rows.map(toRecord);
  },

  /**
   * The row of `name`, locked `FOR UPDATE`: the guard if two projectors ever overlapped.
   * @throws Error when the read model is not installed.
   */
  async lock(tx: SqlQueryable, name: string): Promise<ProjectionRecord> {
    const { rows } = await tx.query<Row>(
      `select ${COLUMNS} from ledger_projections where name = $1 for update`,
      [name],
    );
    if (!rows[0]) throw new Error(`Read model ${name} is not installed`);
    return toRecord(rows[0]);
  },

  /**
   * The rows of `names`, locked `FOR UPDATE` in name order (one lock order: no deadlock).
   * @throws Error when one of them is not installed.
   */
  async lockMany(tx: SqlExecutor, names: readonly string[]): Promise<Map<string, ProjectionRecord>> {
    const { rows } = await tx.queryPrepared<Row>(
      'rm_lock_checkpoints',
      `select ${COLUMNS} from ledger_projections where name = any($1::text[]) order by name for update`,
      [[...names]],
    );
    const records = new Map(rows.map((r) => [r.name, toRecord(r)]));
    const missing = names.find((n) => !records.has(n));
    if (missing !== undefined) throw new Error(`Read model ${missing} is not installed`);
    return records;
  },

  /** The rows of `names` that exist, by name (one statement). */
  async loadMany(sql: SqlExecutor, names: readonly string[]): Promise<Map<string, ProjectionRecord>> {
    const { rows } = await sql.queryPrepared<Row>(
      'rm_load_checkpoints',
      `select ${COLUMNS} from ledger_projections where name = any($1::text[])`,
      [[...names]],
    );
    return new Map(rows.map((r) => [r.name, toRecord(r)]));
  },

  /** {@link advance} of several read models in one statement. */
  async advanceMany(
    tx: SqlExecutor,
    moves: readonly { name: string; position: bigint; lastEventAt: Date }[],
    holder: string,
  ): Promise<void> {
    if (moves.length === 0) return;
    await tx.queryPrepared(
      'rm_advance_checkpoints',
      `update ledger_projections p set position = greatest(p.position, m.position::bigint),
         last_event_at = m.last_event_at::timestamptz, updated_at = now(), holder = $4,
         heartbeat_at = now(), last_error = null, last_error_at = null
       from unnest($1::text[], $2::text[], $3::text[]) as m(name, position, last_event_at)
       where p.name = m.name`,
      [
        moves.map((m) => m.name),
        moves.map((m) => m.position.toString()),
        moves.map((m) => m.lastEventAt.toISOString()),
        holder,
      ],
    );
  },

  /** Moves the live checkpoint (never backwards) and records the holder. */
  async advance(
    tx: SqlQueryable,
    name: string,
    position: bigint,
    lastEventAt: Date,
    holder: string,
  ): Promise<void> {
    await tx.query(
      `update ledger_projections set position = greatest(position, $2::text::bigint), last_event_at = $3,
         updated_at = now(), holder = $4, heartbeat_at = now(), last_error = null, last_error_at = null
       where name = $1`,
      [name, position.toString(), lastEventAt.toISOString(), holder],
    );
  },

  /** Moves the shadow tables' checkpoint of a rebuild (never backwards). */
  async advanceRebuild(tx: SqlQueryable, name: string, position: bigint): Promise<void> {
    await tx.query(
      `update ledger_projections set rebuild_position = greatest(rebuild_position, $2::text::bigint),
         heartbeat_at = now() where name = $1`,
      [name, position.toString()],
    );
  },

  /** Records who projects `name` now and in which state (`catching-up`, `live`, `rebuilding` …). */
  async markHolder(sql: SqlQueryable, name: string, holder: string, state: string): Promise<void> {
    await sql.query(
      `update ledger_projections set holder = $2, holder_state = $3, heartbeat_at = now(),
         holder_since = case when holder is distinct from $2 then now() else holder_since end
       where name = $1`,
      [name, holder, state],
    );
  },

  /** Records the last failure of the holder (cleared by the next successful batch). */
  async markError(sql: SqlQueryable, name: string, message: string): Promise<void> {
    await sql.query(`update ledger_projections set last_error = $2, last_error_at = now() where name = $1`, [
      name,
      message.slice(0, 2000),
    ]);
  },
};
