import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** Streams per `ledger_create_streams` call while filling (one event each). */
const FILLER_BATCH = 5_000;

/** Tables whose autovacuum (and so automatic ANALYZE) the stream-count sweep turns off. */
export const EVENT_TABLES = ['ledger_streams', 'ledger_events'] as const;

/**
 * Adds streams `from` … `to` − 1 named `bench-filler/<n>`, one `BenchFiller` event each, straight
 * through the store's own set-based append (`ledger_create_streams`, as the claim path's group
 * commit writes): real stream rows, events, index entries and global positions, without going
 * through the ledger's command handlers (a million claims would take minutes). The streams are
 * nobody's operations; they only make the tables and indexes as large as a long-lived ledger's.
 * @throws the pg error when a call fails, or Error when a stream already existed.
 */
export async function addFillerStreams(connectionString: string, from: number, to: number): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    for (let start = from; start < to; start += FILLER_BATCH) {
      const end = Math.min(to, start + FILLER_BATCH);
      const requests = [];
      for (let n = start; n < end; n++) {
        requests.push({
          stream: `bench-filler/${n}`,
          events: [{ id: randomUUID(), type: 'BenchFiller', data: { n }, metadata: {} }],
        });
      }
      const { rows } = await client.query<{ ok: boolean }>('select ok from ledger_create_streams($1)', [
        JSON.stringify(requests),
      ]);
      if (rows.some((r) => !r.ok))
        throw new Error(`filler streams ${start}…${end - 1}: some existed already`);
    }
  } finally {
    await client.end();
  }
}

/**
 * Turns autovacuum — and with it the automatic ANALYZE — off for {@link EVENT_TABLES}
 * (`autovacuum_enabled` storage parameter, PostgreSQL docs "Storage Parameters"), and, with
 * `analyze`, gathers statistics once now: later growth then leaves them stale, as on a server
 * whose autovacuum is off or behind.
 */
export async function freezeStatistics(connectionString: string, analyze: boolean): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    for (const table of EVENT_TABLES) {
      await client.query(
        `alter table ${table} set (autovacuum_enabled = false, toast.autovacuum_enabled = false)`,
      );
      if (analyze) await client.query(`analyze ${table}`);
    }
  } finally {
    await client.end();
  }
}

/** Live rows of `ledger_streams` (count(*), exact). */
export async function streamCount(connectionString: string): Promise<number> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('select count(*)::text as n from ledger_streams');
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}
