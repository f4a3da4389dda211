import type { EventToAppend } from '../../src/event-store/event-store.port.js';
import type { SqlQueryable } from '../../src/event-store/sql-executor.js';

/** Number of rows of `stream` in `ledger_events` (what is stored, not what read returns). */
export async function countStoredEvents(sql: SqlQueryable, stream: string): Promise<number> {
  const { rows } = await sql.query<{ count: string }>(
    'select count(*)::text as count from ledger_events where stream_name = $1',
    [stream],
  );
  return Number(rows[0]!.count);
}

/** Calls `ledger_append` directly on `sql` (e.g. inside a transaction held open by the test). */
export async function appendRaw(
  sql: SqlQueryable,
  stream: string,
  events: readonly EventToAppend[],
  expected: string,
): Promise<void> {
  const { rows } = await sql.query<{ ok: boolean }>('select ok from ledger_append($1, $2, $3::text::jsonb)', [
    stream,
    expected,
    JSON.stringify(events.map((e) => ({ ...e, metadata: e.metadata ?? {} }))),
  ]);
  if (!rows[0]?.ok) throw new Error(`raw append to ${stream} was refused`);
}

/** Recorded migrations, in version order. */
export async function recordedMigrations(sql: SqlQueryable): Promise<{ version: number; name: string }[]> {
  const { rows } = await sql.query<{ version: number; name: string }>(
    'select version, name from ledger_schema_migrations order by version',
  );
  return rows.map((row) => ({ version: Number(row.version), name: row.name }));
}
