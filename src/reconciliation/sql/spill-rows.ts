import type { SqlQueryable } from '../../event-store/sql-executor.js';
import type { DestinationRow } from '../upload/destination-row.js';
import type { SourceRow } from '../upload/source-row.js';

/** Rows per insert statement while an upload streams in. */
export const SPILL_BATCH = 2000;

/** Destination rows as the JSON text one spill statement takes (its UTF-8 length is what tenant bounds count). */
export function encodeDestinationRows(rows: readonly DestinationRow[]): string {
  return JSON.stringify(
    rows.map((r) => ({ line: r.line, record_id: r.recordId, reference: r.reference, fields: r.fields })),
  );
}

/** Source intents as the JSON text one spill statement takes. */
export function encodeSourceRows(rows: readonly SourceRow[]): string {
  return JSON.stringify(rows.map((r) => ({ line: r.line, operation_id: r.operationId, key: r.key })));
}

/**
 * Appends destination rows of run `id` ({@link encodeDestinationRows}) in ONE statement
 * (`jsonb_to_recordset`). A line already written is left as it is (a retried batch writes nothing
 * twice).
 */
export async function spillDestinationRows(sql: SqlQueryable, id: string, encoded: string): Promise<void> {
  await sql.query(
    `insert into ledger_recon_destination_rows (recon_id, line, record_id, reference, fields)
     select $1, x.line, x.record_id, x.reference, x.fields
       from jsonb_to_recordset($2::text::jsonb) as x(line bigint, record_id text, reference text, fields jsonb)
     on conflict do nothing`,
    [id, encoded],
  );
}

/** Appends source intents of run `id` ({@link encodeSourceRows}) in one statement, as {@link spillDestinationRows}. */
export async function spillSourceRows(sql: SqlQueryable, id: string, encoded: string): Promise<void> {
  await sql.query(
    `insert into ledger_recon_source_rows (recon_id, line, operation_id, key)
     select $1, x.line, x.operation_id, x.key
       from jsonb_to_recordset($2::text::jsonb) as x(line bigint, operation_id uuid, key jsonb)
     on conflict do nothing`,
    [id, encoded],
  );
}
