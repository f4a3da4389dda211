import pg from 'pg';
import { PgPoolExecutor } from '../../src/event-store/postgres/pg-pool-executor.js';
import { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';
import { installEventStoreSchema } from '../../src/event-store/sql/event-store-schema.js';
import { APPEND_ANY_QUERY } from '../../src/event-store/sql/functions/ledger-append-any.js';
import { CREATE_STREAMS_QUERY } from '../../src/event-store/sql/functions/ledger-create-streams.js';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { newPglite } from '../support/pglite-snapshot.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';

/**
 * The set-based append statements must look streams up through `ledger_streams_pkey` whatever
 * the statistics say (once, `ledger_append_any`'s `held` CTE seq-scanned `ledger_streams` with
 * autovacuum off). Checked on the generic plan, the one a PL/pgSQL function keeps per connection,
 * with autovacuum off: on never-analysed empty tables (a plan cached at start-up), and on
 * statistics taken at 3 streams while the table holds thousands.
 */
const STATEMENTS = { ledger_append_any: APPEND_ANY_QUERY, ledger_create_streams: CREATE_STREAMS_QUERY };

/** The generic plan of `query` (`$1` text), as EXPLAIN text, on one session of `sql`. */
async function genericPlan(sql: SqlExecutor, query: string): Promise<string> {
  return sql.transaction(async (tx) => {
    await tx.exec('set local plan_cache_mode = force_generic_plan');
    await tx.exec(`prepare plan_probe (text) as ${query}`);
    try {
      const { rows } = await tx.query<{ 'QUERY PLAN': string }>("explain execute plan_probe('[]')");
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    } finally {
      await tx.exec('deallocate plan_probe');
    }
  });
}

function describePlans(name: string, open: () => Promise<{ sql: SqlExecutor; close(): Promise<void> }>) {
  describe(`set-based append plans: ${name}`, () => {
    let sql: SqlExecutor;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ sql, close } = await open());
      await installEventStoreSchema(sql);
      await sql.exec(`alter table ledger_streams set (autovacuum_enabled = false);
                      alter table ledger_events set (autovacuum_enabled = false);`);
    }, 30_000);
    afterAll(() => close?.());

    const expectIndexLookups = async () => {
      for (const [statement, query] of Object.entries(STATEMENTS)) {
        const plan = await genericPlan(sql, query);
        expect({ statement, plan }).toEqual({
          statement,
          plan: expect.not.stringMatching(/Seq Scan on ledger_streams/),
        });
        expect(plan).toMatch(/Index Scan using ledger_streams_pkey on ledger_streams/);
      }
    };

    it('probes the stream index on empty, never analysed tables', async () => {
      const { rows } = await sql.query<{ reltuples: number }>(
        "select reltuples::float8 as reltuples from pg_class where relname = 'ledger_streams'",
      );
      expect(Number(rows[0]!.reltuples)).toBeLessThan(0); // never vacuumed or analysed
      await expectIndexLookups();
    });

    it('probes the stream index when the statistics describe a much smaller table', async () => {
      await sql.exec(`insert into ledger_streams (stream_name, stream_position)
                        select 'plan-' || g, 0 from generate_series(1, 3) g;
                      analyze ledger_streams;
                      insert into ledger_streams (stream_name, stream_position)
                        select 'plan-' || g, 0 from generate_series(4, 20000) g;`);
      await expectIndexLookups();
    });
  });
}

describePlans('PostgreSQL', async () => {
  const db: TestDatabase = await createTestDatabase();
  const pool = new pg.Pool({ connectionString: db.connectionString, max: 2 });
  // the forced drop in close() ends connections pool.end() has not closed yet: no crash for that
  pool.on('error', () => undefined);
  return {
    sql: new PgPoolExecutor(pool),
    async close() {
      await pool.end();
      await db.drop();
    },
  };
});

describePlans('PGlite', async () => {
  const db = await newPglite();
  return { sql: new PgliteExecutor(db), close: () => db.close() };
});
