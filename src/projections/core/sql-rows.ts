import type { SqlExecutor } from '../../event-store/sql-executor.js';

/** A column of a read-model table: its name and SQL type. */
export interface Column {
  readonly name: string;
  readonly type: string;
}

/**
 * Upserts `rows` of `table` in one prepared statement (`jsonb_to_recordset`), keyed by `key`
 * (bigints as decimal strings). With `guardColumn`, only a greater guard value overwrites a row.
 */
export async function upsertRows(
  tx: SqlExecutor,
  table: string,
  columns: readonly Column[],
  key: readonly string[],
  rows: readonly object[],
  guardColumn?: string,
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map((c) => c.name).join(', ');
  const types = columns.map((c) => `${c.name} ${c.type}`).join(', ');
  const updates = columns
    .filter((c) => !key.includes(c.name))
    .map((c) => `${c.name} = excluded.${c.name}`)
    .join(', ');
  const guard = guardColumn ? ` where ${table}.${guardColumn} < excluded.${guardColumn}` : '';
  await tx.queryPrepared(
    `rm_upsert_${table}`,
    `insert into ${table} (${names})
     select ${names} from jsonb_to_recordset($1::text::jsonb) as x(${types})
     on conflict (${key.join(', ')}) do update set ${updates}${guard}`,
    [JSON.stringify(rows)],
  );
}

/** Orders bigints ascending (for `Array.prototype.sort`). */
export function compareBigint(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
