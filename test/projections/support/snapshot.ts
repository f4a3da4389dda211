import type { SqlQueryable } from '../../../src/event-store/sql-executor.js';

/** Primary key order of each read-model view, for row-by-row comparison. */
const ORDER: Record<string, string> = {
  ledger_rm_operations: 'operation_id',
  ledger_rm_review_queue: 'operation_id, reason',
  ledger_rm_metrics: 'tenant, action, bucket, bucket_start',
  ledger_rm_conflicts: 'event_id',
};

/** Every row of every read-model view as JSON text (jsonb/bigint/timestamps rendered by PostgreSQL). */
export async function snapshotReadModels(sql: SqlQueryable): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [view, order] of Object.entries(ORDER)) {
    const { rows } = await sql.query<{ row: string }>(
      `select row_to_json(v)::text as row from ${view} v order by ${order}`,
    );
    out[view] = rows.map((r) => r.row);
  }
  return out;
}

/** Number of rows of a read-model view, optionally filtered by a SQL condition. */
export async function countRows(
  sql: SqlQueryable,
  view: string,
  where = 'true',
  params: unknown[] = [],
): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(
    `select count(*)::int as n from ${view} where ${where}`,
    params,
  );
  return Number(rows[0]!.n);
}

/** The stored checkpoint of every read model, by name. */
export async function checkpoints(sql: SqlQueryable): Promise<Record<string, bigint>> {
  const { rows } = await sql.query<{ name: string; position: string }>(
    'select name, position::text as position from ledger_projections',
  );
  return Object.fromEntries(rows.map((r) => [r.name, BigInt(r.position)]));
}
