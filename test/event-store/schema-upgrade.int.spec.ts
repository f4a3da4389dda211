import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { NO_STREAM, ANY, WrongExpectedVersionError } from '../../src/event-store/event-store.port.js';
import { PgPoolExecutor } from '../../src/event-store/postgres/pg-pool-executor.js';
import { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store.js';
import { applyMigrations } from '../../src/event-store/sql/apply-migrations.js';
import {
  EVENT_STORE_MIGRATIONS,
  installEventStoreSchema,
} from '../../src/event-store/sql/event-store-schema.js';
import type { SqlExecutor } from '../../src/event-store/sql-executor.js';
import { SqlEventStore } from '../../src/event-store/sql-event-store.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';
import { describeEventStoreContract } from './event-store.contract.js';
import { ids, newEvents, streamName } from './event-store-test-kit.js';
import { MIGRATIONS_AT_382FAA8 } from './fixtures/main-382faa8/index.js';
import { describeGroupCommit } from './group-commit.contract.js';
import { countStoredEvents, recordedMigrations } from './sql-test-kit.js';
import { newPglite } from '../support/pglite-snapshot.js';

/**
 * Databases created by an earlier release (main at 382faa8, its migrations frozen in
 * fixtures/main-382faa8) must upgrade cleanly when the current code opens them: the new
 * migrations apply, what was stored reads back unchanged, the contracts hold, and the schema is
 * the one a fresh install gets.
 */

/** Every schema object of the event store, as text: functions with their bodies, columns, constraints, indexes, triggers. */
async function schemaOf(sql: SqlExecutor): Promise<string[]> {
  const { rows } = await sql.query<{ item: string }>(`
    select 'function ' || pg_get_functiondef(p.oid) as item
      from pg_proc p where p.pronamespace = 'public'::regnamespace
    union all
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable
           || ' ' || coalesce(column_default, '')
      from information_schema.columns where table_schema = 'public'
    union all
    select 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
    union all
    select 'index ' || indexdef from pg_indexes where schemaname = 'public'
    union all
    select 'trigger ' || tgname from pg_trigger where not tgisinternal
    order by 1`);
  return rows.map((row) => row.item);
}

/** What the earlier release stored: a claim, a refused duplicate's audit under `onlyIf`, a plain `any` append. */
async function writeAsEarlierRelease(sql: SqlExecutor) {
  const store = new SqlEventStore(sql, async () => undefined); // no install: the schema stays at 8
  const claim = { stream: streamName('upgrade-claim'), events: newEvents(2) };
  const audit = { stream: streamName('upgrade-audit'), events: newEvents(1, 'Audit') };
  await store.append(claim.stream, claim.events, NO_STREAM);
  await store.append(claim.stream, newEvents(1), NO_STREAM).catch((e: unknown) => {
    if (!(e instanceof WrongExpectedVersionError)) throw e;
  });
  const [written] = await store.appendBatch([
    {
      streamName: audit.stream,
      events: audit.events,
      expectedRevision: ANY,
      onlyIf: { streamName: claim.stream, revision: 1n },
    },
  ]);
  expect(written!.ok).toBe(true);
  return { claim, audit };
}

async function expectUpgraded(
  sql: SqlExecutor,
  stored: Awaited<ReturnType<typeof writeAsEarlierRelease>>,
  fresh: SqlExecutor,
) {
  expect(await recordedMigrations(sql)).toEqual(
    EVENT_STORE_MIGRATIONS.map(({ version, name }) => ({ version, name })),
  );
  expect(await schemaOf(sql)).toEqual(await schemaOf(fresh));
  const store = new SqlEventStore(sql, async () => undefined);
  expect(ids(await store.read(stored.claim.stream))).toEqual(ids(stored.claim.events));
  expect(ids(await store.read(stored.audit.stream))).toEqual(ids(stored.audit.events));
  // a duplicate claim on the old stream, its audit under onlyIf, and a new claim, all on the new functions
  const refusal = await store.append(stored.claim.stream, newEvents(1), NO_STREAM).catch((e: unknown) => e);
  expect((refusal as WrongExpectedVersionError).actual).toBe(1n);
  const [audited] = await store.appendBatch([
    {
      streamName: stored.audit.stream,
      events: newEvents(1),
      expectedRevision: ANY,
      onlyIf: { streamName: stored.claim.stream, revision: 1n },
    },
  ]);
  expect(audited).toMatchObject({ ok: true, nextExpectedRevision: 1n });
  const next = { stream: streamName('upgrade-new'), events: newEvents(2) };
  await store.append(next.stream, next.events, NO_STREAM);
  expect(ids(await store.read(next.stream))).toEqual(ids(next.events));
  expect(await countStoredEvents(sql, stored.claim.stream)).toBe(2);
}

describe('schema upgrade from main at 382faa8: PostgreSQL', () => {
  let old: TestDatabase;
  let fresh: TestDatabase;
  const pools: pg.Pool[] = [];
  const executor = (db: TestDatabase) => {
    const pool = new pg.Pool({ connectionString: db.connectionString, max: 4 });
    // pool.end() resolves before its clients' sockets close; the forced drop in afterAll then ends
    // them (57P01), which a pool without a listener throws as an unhandled 'error' (it crashed
    // this file once in CI)
    pool.on('error', () => undefined);
    pools.push(pool);
    return new PgPoolExecutor(pool);
  };
  let upgraded: Promise<void>;
  beforeAll(async () => {
    [old, fresh] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    await installEventStoreSchema(executor(fresh));
    const sql = executor(old);
    expect(await applyMigrations(sql, MIGRATIONS_AT_382FAA8)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    const stored = await writeAsEarlierRelease(sql);
    upgraded = (async () => {
      const store = await PostgresEventStore.open({ connectionString: old.connectionString, poolSize: 4 });
      await store.close();
      await expectUpgraded(sql, stored, executor(fresh));
    })();
    await upgraded;
  }, 30_000);
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.end()));
    await Promise.all([old?.drop(), fresh?.drop()]);
  });

  it('applies only the new migrations, keeps what was stored and ends with the fresh schema', async () => {
    await upgraded;
    expect(await installEventStoreSchema(executor(old))).toEqual([]);
  });

  const openUpgraded = async () => {
    await upgraded;
    return PostgresEventStore.open({ connectionString: old.connectionString, poolSize: 10 });
  };
  describeEventStoreContract('PostgreSQL upgraded from 382faa8', async () => {
    const store = await openUpgraded();
    return { store, cleanup: () => store.close(), countStored: (s) => countStoredEvents(store.executor, s) };
  });
  describeGroupCommit('PostgreSQL upgraded from 382faa8', openUpgraded);
});

/** An in-memory PGlite holding the earlier release's schema and data, then opened by the current code. */
async function upgradedPglite(): Promise<{ store: SqlEventStore; db: PGlite }> {
  const db = await newPglite();
  const sql = new PgliteExecutor(db);
  await applyMigrations(sql, MIGRATIONS_AT_382FAA8);
  const stored = await writeAsEarlierRelease(sql);
  expect(await installEventStoreSchema(sql)).toEqual(
    EVENT_STORE_MIGRATIONS.map((m) => m.version).filter((v) => v > 8),
  );
  const fresh = await newPglite();
  await installEventStoreSchema(new PgliteExecutor(fresh));
  await expectUpgraded(sql, stored, new PgliteExecutor(fresh));
  await fresh.close();
  return { store: new SqlEventStore(sql, () => db.close()), db };
}

describe('schema upgrade from main at 382faa8: PGlite', () => {
  // Upgraded once for the file (two PGlite starts, ≈ 2 CPU-s each): the test checks the upgrade
  // (inside upgradedPglite), then the group commit suite runs on the upgraded store — with unique
  // stream names, as on a store of its own.
  let upgraded: ReturnType<typeof upgradedPglite> | undefined;
  const upgradedOnce = () => (upgraded ??= upgradedPglite());
  afterAll(async () => (await upgraded?.catch(() => undefined))?.store.close());

  it('applies only the new migrations, keeps what was stored and ends with the fresh schema', async () => {
    await upgradedOnce();
  }, 30_000);

  describeGroupCommit('PGlite upgraded from 382faa8', async () => (await upgradedOnce()).store, {
    keepOpen: true,
  });
});
