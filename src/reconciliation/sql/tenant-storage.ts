import type { SqlQueryable } from '../../event-store/sql-executor.js';
import type { Stored } from '../storage-bounds.js';

/** Advisory lock class of a tenant's spill accounting (the key is the tenant's `hashtext`). */
const SPILL_LOCK_CLASS = 1381253964;

/** What a tenant's runs keep in the spill tables, counted against its bounds. */
export const tenantStorage = {
  /**
   * Takes the tenant's spill lock until `tx` ends, so concurrent uploads cannot each see room
   * for their batch and together go past the bound.
   */
  async lock(tx: SqlQueryable, tenant: string): Promise<void> {
    await tx.query(`select pg_advisory_xact_lock(${SPILL_LOCK_CLASS}, hashtext($1))`, [tenant]);
  },

  /** Rows and bytes spilled by the tenant's runs whose rows are still kept. */
  async kept(sql: SqlQueryable, tenant: string): Promise<Stored> {
    const { rows } = await sql.query<{ rows: string; bytes: string }>(
      `select coalesce(sum(stored_rows), 0)::text as rows, coalesce(sum(stored_bytes), 0)::text as bytes
         from ledger_reconciliations where tenant = $1 and rows_removed_at is null`,
      [tenant],
    );
    return { rows: Number(rows[0]?.rows ?? 0), bytes: Number(rows[0]?.bytes ?? 0) };
  },

  /** Adds a written batch to run `id`'s counts and extends its holder's lease. */
  async add(sql: SqlQueryable, id: string, holder: string, batch: Stored): Promise<void> {
    await sql.query(
      `update ledger_reconciliations
          set stored_rows = stored_rows + $3, stored_bytes = stored_bytes + $4, heartbeat_at = now()
        where id = $1 and holder = $2`,
      [id, holder, batch.rows, batch.bytes],
    );
  },
};
