import { createHash } from 'node:crypto';
import type { PgliteConnection } from '../src/event-store/postgres/pglite-connection.js';
import pg from 'pg';
import { keyString, type BenchKey, type BenchPayload } from './workload.js';

/** Runs one parameterised statement; a pg `Pool` and a PGlite instance both fit (wrapped). */
interface Sql {
  query<T>(text: string, params: unknown[]): Promise<{ rows: T[] }>;
}

/** What the hand-rolled table answers to a claim. */
export type BaselineAnswer =
  | { readonly kind: 'new' }
  | { readonly kind: 'duplicate'; readonly response: unknown }
  | { readonly kind: 'in_progress' }
  | { readonly kind: 'conflict'; readonly existingFingerprint: string };

const CREATE_TABLE = `
  create table if not exists idempotency_keys (
    key          text primary key,
    fingerprint  text not null,
    response     jsonb,
    created_at   timestamptz not null default now(),
    completed_at timestamptz
  )`;

/**
 * The baseline a user would hand-roll instead of the ledger: one `idempotency_keys` table with a
 * unique key. A claim is `INSERT … ON CONFLICT DO NOTHING RETURNING` (one round trip for a new key);
 * when it conflicted, a `SELECT` of the stored fingerprint and response answers the duplicate
 * (two round trips). Completing stores the response with one `UPDATE`. The payload fingerprint is
 * SHA-256 of `JSON.stringify(payload)`, computed in the client as such code usually does.
 */
export class IdempotencyTableBaseline {
  private constructor(
    private readonly sql: Sql,
    private readonly release: () => Promise<void>,
  ) {}

  /**
   * A baseline on PostgreSQL with its own pg `Pool` of `poolSize` connections (use the ledger's
   * pool size so both get the same number of server connections); creates the table.
   */
  static async onPostgres(connectionString: string, poolSize: number): Promise<IdempotencyTableBaseline> {
    const pool = new pg.Pool({ connectionString, max: poolSize, application_name: 'ledger-bench-baseline' });
    pool.on('error', () => undefined);
    const baseline = new IdempotencyTableBaseline(pool, () => pool.end());
    await baseline.install();
    return baseline;
  }

  /**
   * A baseline in an existing PGlite instance (e.g. the ledger's own, so both share its single
   * connection); creates the table. {@link close} leaves the instance open.
   */
  static async onPglite(db: PgliteConnection): Promise<IdempotencyTableBaseline> {
    const sql: Sql = { query: async <T>(text: string, params: unknown[]) => db.query<T>(text, params) };
    const baseline = new IdempotencyTableBaseline(sql, async () => undefined);
    await baseline.install();
    return baseline;
  }

  private async install(): Promise<void> {
    await this.sql.query(CREATE_TABLE, []);
  }

  /**
   * Claims `key`: inserts it with the payload's fingerprint, or — when the key exists — reads the
   * stored fingerprint and response (a different fingerprint is a conflict, no response yet means
   * in progress).
   * @throws Error when the conflicting row vanished between the two statements.
   */
  async claim(key: BenchKey, payload: BenchPayload): Promise<BaselineAnswer> {
    const k = keyString(key);
    const fingerprint = fingerprintOf(payload);
    const inserted = await this.sql.query<{ key: string }>(
      'insert into idempotency_keys (key, fingerprint) values ($1, $2) on conflict (key) do nothing returning key',
      [k, fingerprint],
    );
    if (inserted.rows.length === 1) return { kind: 'new' };
    const { rows } = await this.sql.query<{ fingerprint: string; response: unknown }>(
      'select fingerprint, response from idempotency_keys where key = $1',
      [k],
    );
    const row = rows[0];
    if (!row) throw new Error(`idempotency key ${k} conflicted but is gone`);
    if (row.fingerprint !== fingerprint) return { kind: 'conflict', existingFingerprint: row.fingerprint };
    return row.response === null ? { kind: 'in_progress' } : { kind: 'duplicate', response: row.response };
  }

  /**
   * Records the response of a claimed key (one `UPDATE`).
   * @throws Error when the key was not claimed or already has a response.
   */
  async complete(key: BenchKey, response: unknown): Promise<void> {
    const { rows } = await this.sql.query<{ key: string }>(
      `update idempotency_keys set response = $2::text::jsonb, completed_at = now()
        where key = $1 and response is null returning key`,
      [keyString(key), JSON.stringify(response)],
    );
    if (rows.length !== 1) throw new Error(`idempotency key ${keyString(key)} was not open for completion`);
  }

  /** Closes the own pool (PostgreSQL); a shared PGlite instance stays open. Idempotent enough for one call. */
  close(): Promise<void> {
    return this.release();
  }
}

/** SHA-256 (hex) of `JSON.stringify(payload)`: the fingerprint a hand-rolled table would store. */
export function fingerprintOf(payload: BenchPayload): string {
  return createHash('sha256').update(JSON.stringify(payload)).digest('hex');
}
