import type { SqlQueryable } from '../../event-store/sql-executor.js';
import type { ApplyMode, MatchMode, Phase, ReconciliationRun, RunOptions, RunStatus } from '../run.js';
import type { Caller } from '../../auth/index.js';

/** A holder that has not heartbeaten for this long (s) is presumed dead; its run may be taken over. */
export const STALE_HOLDER_S = 30;

const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : new Date(v as string).toISOString();

function toRun(r: Record<string, unknown>): ReconciliationRun {
  return {
    id: String(r.id),
    tenant: String(r.tenant),
    action: (r.action as string | null) ?? null,
    from: iso(r.from_ts),
    to: iso(r.to_ts),
    match: r.match as MatchMode,
    apply: r.apply as ApplyMode,
    options: r.options as RunOptions,
    createdBy: r.created_by as Caller,
    status: r.status as RunStatus,
    phase: (r.phase as Phase | null) ?? null,
    progress: { done: Number(r.progress_done), total: Number(r.progress_total) },
    destinationRows: Number(r.destination_rows),
    sourceRows: r.source_rows === null ? null : Number(r.source_rows),
    stored: { rows: Number(r.stored_rows ?? 0), bytes: Number(r.stored_bytes ?? 0) },
    totals: r.totals ?? null,
    checkpoint: (r.checkpoint as string | null) ?? null,
    error: (r.error as string | null) ?? null,
    createdAt: iso(r.created_at)!,
    startedAt: iso(r.started_at),
    finishedAt: iso(r.finished_at),
  };
}

/** What a new run is made of. */
export interface NewRun {
  readonly id: string;
  readonly tenant: string;
  readonly action: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly match: MatchMode;
  readonly apply: ApplyMode;
  readonly options: RunOptions;
  readonly createdBy: Caller;
  readonly holder: string;
  /** Epoch ms. */
  readonly now: number;
}

/** The `ledger_reconciliations` rows: runs, their status, progress and lease. */
export const runStore = {
  /** Records a run in status `receiving`, held by the uploading instance. */
  async create(sql: SqlQueryable, run: NewRun): Promise<void> {
    await sql.query(
      `insert into ledger_reconciliations
         (id, tenant, action, from_ts, to_ts, match, apply, options, created_by, status, holder, heartbeat_at, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb, $9::text::jsonb, 'receiving', $10, now(), $11)`,
      [
        run.id,
        run.tenant,
        run.action,
        run.from,
        run.to,
        run.match,
        run.apply,
        JSON.stringify(run.options),
        JSON.stringify({
          keyId: run.createdBy.keyId,
          name: run.createdBy.name,
          tenant: run.createdBy.tenant,
          roles: run.createdBy.roles,
        }),
        run.holder,
        new Date(run.now).toISOString(),
      ],
    );
  },

  /** The run `id` of `tenant`, or null. */
  async get(sql: SqlQueryable, tenant: string, id: string): Promise<ReconciliationRun | null> {
    const { rows } = await sql.query('select * from ledger_reconciliations where id = $1 and tenant = $2', [
      id,
      tenant,
    ]);
    return rows[0] ? toRun(rows[0]) : null;
  },

  /** The run `id` (any tenant: for the background job), or null. */
  async byId(sql: SqlQueryable, id: string): Promise<ReconciliationRun | null> {
    const { rows } = await sql.query('select * from ledger_reconciliations where id = $1', [id]);
    return rows[0] ? toRun(rows[0]) : null;
  },

  /** The latest runs of a tenant, newest first. */
  async latest(sql: SqlQueryable, tenant: string, limit: number): Promise<ReconciliationRun[]> {
    const { rows } = await sql.query(
      'select * from ledger_reconciliations where tenant = $1 order by created_at desc, id limit $2',
      [tenant, limit],
    );
    return rows.map(toRun);
  },

  /** Moves a run from `from` to `to` (with extra column values); false when it was not in `from`. */
  async transition(
    sql: SqlQueryable,
    id: string,
    from: readonly RunStatus[],
    to: RunStatus,
    set: { destinationRows?: number; sourceRows?: number; error?: string; holder?: string | null } = {},
  ): Promise<boolean> {
    const { rows } = await sql.query(
      `update ledger_reconciliations set status = $3,
              destination_rows = coalesce($4, destination_rows), source_rows = coalesce($5, source_rows),
              error = coalesce($6, error),
              holder = case when $7::boolean then $8 else holder end,
              heartbeat_at = now(),
              finished_at = case when $3 in ('completed', 'failed') then now() else finished_at end
        where id = $1 and status = any($2::text[]) returning id`,
      [
        id,
        from,
        to,
        set.destinationRows ?? null,
        set.sourceRows ?? null,
        set.error ?? null,
        'holder' in set,
        set.holder ?? null,
      ],
    );
    return rows.length === 1;
  },

  /** Extends the holder's lease (and records progress). False when another instance holds it now. */
  async heartbeat(sql: SqlQueryable, id: string, holder: string): Promise<boolean> {
    const { rows } = await sql.query(
      'update ledger_reconciliations set heartbeat_at = now() where id = $1 and holder = $2 returning id',
      [id, holder],
    );
    return rows.length === 1;
  },

  /**
   * Takes the oldest queued run, or a running one whose holder went silent (a restart): it is
   * resumed at its recorded phase. Null when there is none.
   */
  async takeNext(sql: SqlQueryable, holder: string): Promise<ReconciliationRun | null> {
    const { rows } = await sql.query(
      `update ledger_reconciliations set holder = $1, heartbeat_at = now(), status = 'running',
              started_at = coalesce(started_at, now()), phase = coalesce(phase, 'snapshot')
        where id = (select id from ledger_reconciliations
                     where status = 'queued'
                        or (status = 'running' and (holder is null or heartbeat_at < now() - make_interval(secs => $2)))
                     order by created_at limit 1 for update skip locked)
        returning *`,
      [holder, STALE_HOLDER_S],
    );
    return rows[0] ? toRun(rows[0]) : null;
  },

  /** Records the phase a held run is in and its progress. False when the lease was lost. */
  async progress(
    sql: SqlQueryable,
    id: string,
    holder: string,
    phase: Phase,
    done: number,
    total: number,
  ): Promise<boolean> {
    const { rows } = await sql.query(
      `update ledger_reconciliations set phase = $3, progress_done = $4, progress_total = $5, heartbeat_at = now()
        where id = $1 and holder = $2 and status = 'running' returning id`,
      [id, holder, phase, done, total],
    );
    return rows.length === 1;
  },

  /** Lets go of a run (a transient failure: another instance or a later round resumes it). */
  async release(sql: SqlQueryable, id: string, holder: string): Promise<void> {
    await sql.query('update ledger_reconciliations set holder = null where id = $1 and holder = $2', [
      id,
      holder,
    ]);
  },

  /**
   * Fails uploads whose uploading instance went silent (it restarted mid-upload): their rows are
   * incomplete, so the run can never be a whole report. @returns the ids failed.
   */
  async failAbandonedUploads(sql: SqlQueryable): Promise<string[]> {
    const { rows } = await sql.query<{ id: string }>(
      `update ledger_reconciliations
          set status = 'failed', finished_at = now(),
              error = 'the upload was interrupted (the ledger instance receiving it stopped); upload the file again'
        where status = 'receiving' and heartbeat_at < now() - make_interval(secs => $1) returning id`,
      [STALE_HOLDER_S],
    );
    return rows.map((r) => String(r.id));
  },

  /**
   * Deletes a run (an upload refused as a whole); its spilled rows are left to the sweep
   * (sql/remove-rows.ts), which removes them in chunks: the refusal answers at once.
   */
  async remove(sql: SqlQueryable, id: string): Promise<void> {
    await sql.query('insert into ledger_recon_discarded (recon_id) values ($1) on conflict do nothing', [id]);
    await sql.query('delete from ledger_reconciliations where id = $1', [id]);
  },
};
