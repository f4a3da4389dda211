import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  ANY,
  EventStoreUnavailableError,
  NO_STREAM,
  type RecordedEvent,
} from '../../src/event-store/event-store.port.js';
import { PgPoolExecutor } from '../../src/event-store/postgres/pg-pool-executor.js';
import {
  PostgresEventStore,
  type PostgresEventStoreOptions,
} from '../../src/event-store/postgres/postgres-event-store.js';
import { applyMigrations } from '../../src/event-store/sql/apply-migrations.js';
import {
  EVENT_STORE_MIGRATIONS,
  installEventStoreSchema,
} from '../../src/event-store/sql/event-store-schema.js';
import { ADMIN_URL, createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';
import { describeEventStoreContract } from './event-store.contract.js';
import { describeGroupCommit } from './group-commit.contract.js';
import { ids, newEvents, readAllUntil, rejectionOf, sleep, streamName } from './event-store-test-kit.js';
import { appendRaw, countStoredEvents, recordedMigrations } from './sql-test-kit.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db?.drop());

function openStore(options: Partial<PostgresEventStoreOptions> = {}): Promise<PostgresEventStore> {
  return PostgresEventStore.open({ connectionString: db.connectionString, poolSize: 10, ...options });
}

describeEventStoreContract('PostgreSQL', async () => {
  const store = await openStore();
  return {
    store,
    cleanup: () => store.close(),
    countStored: (stream) => countStoredEvents(store.executor, stream),
  };
});

describe('PostgreSQL event store', () => {
  let store: PostgresEventStore;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    store = await openStore();
  });
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await store?.close();
  });

  /** A raw connection, to hold transactions open the way a slow writer would. */
  async function rawClient(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: db.connectionString });
    await client.connect();
    clients.push(client);
    return client;
  }

  async function marker(): Promise<bigint> {
    return (await store.append(streamName('marker'), newEvents(1), NO_STREAM)).lastGlobalPosition;
  }

  describe('readAll high-water mark', () => {
    it('hides later commits until a delayed earlier append commits, then returns all in order', async () => {
      const start = await marker();
      const delayed = await rawClient();
      await delayed.query('begin');
      const a = newEvents(1);
      await appendRaw(delayed, streamName('delayed'), a, 'no_stream');
      const b = newEvents(1);
      const c = newEvents(2);
      const bStream = streamName('b');
      await store.append(bStream, b, NO_STREAM);
      await store.append(streamName('c'), c, NO_STREAM);
      expect(ids(await store.read(bStream))).toEqual(ids(b)); // committed…

      const commit = delayed.query('select pg_sleep(0.3)').then(() => delayed.query('commit'));
      await sleep(50);
      expect(await store.readAll(start, 100)).toEqual([]); // …but not yet readable in global order
      await commit;

      const all = await readAllUntil(store, start, 4);
      expect(ids(all)).toEqual([...ids(a), ...ids(b), ...ids(c)]);
    });

    it('is not held back by a transaction of another database on the same server', async () => {
      // Transaction ids are server-wide, but a transaction of another database can never write
      // to this one: one long transaction elsewhere (a stuck job of another application, a test
      // of another suite) must not stall every catch-up reader here.
      const start = await marker();
      const elsewhere = new pg.Client({ connectionString: ADMIN_URL });
      await elsewhere.connect();
      clients.push(elsewhere);
      await elsewhere.query('begin');
      await elsewhere.query('select pg_current_xact_id()');
      try {
        const late = newEvents(1);
        await store.append(streamName('after-elsewhere'), late, NO_STREAM);
        // Asked again for a while (readAllUntil): a transaction of another test's database that
        // ends between the read's snapshot and its look at the server's activity holds one read
        // back; the transaction `elsewhere` stays open throughout, so the event showing proves it.
        expect(ids(await readAllUntil(store, start, 1, 10, 3000))).toEqual(ids(late));
      } finally {
        await elsewhere.query('commit');
      }
    });

    it('never skips an append whose transaction started before a committed one it then follows', async () => {
      // The classic sequence hazard: `early` gets its transaction id first, `late` appends first.
      // With a plain sequence, `late` holds the lower position, `early` commits a higher one, a
      // reader checkpoints past it, and `late`'s event is skipped when it commits.
      const start = await marker();
      const early = await rawClient();
      const late = await rawClient();
      await early.query('begin');
      await early.query('select pg_current_xact_id()');
      await late.query('begin');
      const x = newEvents(1);
      await appendRaw(late, streamName('late'), x, 'no_stream');
      const y = newEvents(1);
      await appendRaw(early, streamName('early'), y, 'no_stream');
      await early.query('commit');

      const firstPage = await readAllUntil(store, start, 1);
      expect(ids(firstPage)).toEqual(ids(y));
      await late.query('commit');
      const secondPage = await readAllUntil(store, firstPage[0]!.globalPosition, 1);

      expect(ids(secondPage)).toEqual(ids(x));
    });

    it('lets a checkpointing reader see every event exactly once, in order, under delayed writers', async () => {
      const start = await marker();
      let expectedCount = 0;
      const writer = async (w: number) => {
        const client = await rawClient();
        for (let i = 0; i < 12; i++) {
          const events = newEvents(1 + ((w + i) % 3));
          const stream = streamName(`w${w}-${i % 2}`);
          const pause = (Math.random() * 0.03).toFixed(3);
          switch ((w + i) % 3) {
            case 0: // append, then a slow commit
              await client.query('begin');
              await appendRaw(client, stream, events, 'any');
              await client.query(`select pg_sleep(${pause})`);
              await client.query('commit');
              break;
            case 1: // transaction id first, append later (see the previous test)
              await client.query('begin');
              await client.query('select pg_current_xact_id()');
              await client.query(`select pg_sleep(${pause})`);
              await appendRaw(client, stream, events, 'any');
              await client.query('commit');
              break;
            default:
              await store.append(stream, events, ANY);
          }
          expectedCount += events.length;
        }
      };
      const seen: RecordedEvent[] = [];
      let checkpoint = start;
      let writing = true;
      const reader = (async () => {
        while (writing) {
          const page = await store.readAll(checkpoint, 5);
          seen.push(...page);
          if (page.length > 0) checkpoint = page[page.length - 1]!.globalPosition;
          else await sleep(2);
        }
      })();

      await Promise.all(Array.from({ length: 6 }, (_, w) => writer(w)));
      writing = false;
      await reader;
      seen.push(...(await readAllUntil(store, checkpoint, expectedCount - seen.length, 5)));

      const { rows } = await store.executor.query<{ id: string }>(
        'select event_id::text as id from ledger_events where global_position > $1::text::bigint order by global_position',
        [start.toString()],
      );
      expect(rows).toHaveLength(expectedCount);
      expect(new Set(ids(seen)).size).toBe(seen.length);
      expect(ids(seen)).toEqual(rows.map((row) => row.id));
    }, 20_000);
  });

  describe('unavailability', () => {
    it('raises EventStoreUnavailableError when PostgreSQL is unreachable', async () => {
      const error = await rejectionOf(
        PostgresEventStore.open({
          connectionString: 'postgres://postgres@127.0.0.1:1/postgres',
          connectionTimeoutMs: 1000,
        }),
      );
      expect(error).toBeInstanceOf(EventStoreUnavailableError);
    });

    it('raises EventStoreUnavailableError on statement timeout (waiting for a held stream)', async () => {
      const impatient = await openStore({ statementTimeoutMs: 200, poolSize: 2 });
      const holder = await rawClient();
      const stream = streamName('held');
      try {
        await holder.query('begin');
        await appendRaw(holder, stream, newEvents(1), 'no_stream');

        const error = await rejectionOf(impatient.append(stream, newEvents(1), ANY));

        expect(error).toBeInstanceOf(EventStoreUnavailableError);
        expect(((error as EventStoreUnavailableError).cause as { code?: string }).code).toBe('57014');
        await holder.query('rollback');
        await impatient.append(stream, newEvents(1), NO_STREAM);
        expect(await countStoredEvents(store.executor, stream)).toBe(1);
      } finally {
        await impatient.close();
      }
    });

    it('raises EventStoreUnavailableError when the server ends the session (57P01), then recovers', async () => {
      const applicationName = `ledger-victim-${randomUUID()}`;
      const victim = await openStore({ poolSize: 1, applicationName });
      const admin = await rawClient();
      try {
        const sleeping = victim.executor.query('select pg_sleep(10)');
        let terminated = 0;
        for (let i = 0; i < 100 && terminated === 0; i++) {
          await sleep(20);
          const { rows } = await admin.query(
            "select pg_terminate_backend(pid) as t from pg_stat_activity where application_name = $1 and state = 'active'",
            [applicationName],
          );
          terminated = rows.length;
        }
        expect(terminated).toBe(1);

        const error = await rejectionOf(sleeping);

        expect(error).toBeInstanceOf(EventStoreUnavailableError);
        expect(((error as EventStoreUnavailableError).cause as { code?: string }).code).toBe('57P01');
        expect(await victim.read(streamName('after-restart'))).toEqual([]);
      } finally {
        await victim.close();
      }
    });
  });

  describe('connections', () => {
    // A new connection costs PostgreSQL tens of ms of CPU before its statements run at full speed
    // (PL/pgSQL compiles the append functions, the catalog caches fill): one the pool opened in a
    // burst stays for the next burst instead of being closed as idle.
    it('keeps the connections a burst opened after they go idle, up to the pool size', async () => {
      const applicationName = `idle-probe-${process.pid}-${Date.now()}`;
      const probe = await openStore({ poolSize: 4, idleTimeoutMs: 100, applicationName });
      try {
        const backends = async () => {
          const { rows } = await store.executor.query<{ n: string }>(
            'select count(*)::text as n from pg_stat_activity where application_name = $1',
            [applicationName],
          );
          return Number(rows[0]!.n);
        };
        const holdOne = () => probe.executor.query('select pg_sleep(0.2)');
        await Promise.all(Array.from({ length: 6 }, holdOne));
        expect(await backends()).toBe(4);
        await sleep(600); // six idle timeouts
        expect(await backends()).toBe(4);
      } finally {
        await probe.close();
      }
    });
  });

  describe('schema', () => {
    it('installing again is a no-op', async () => {
      expect(await installEventStoreSchema(store.executor)).toEqual([]);
      expect(await recordedMigrations(store.executor)).toEqual(
        EVENT_STORE_MIGRATIONS.map(({ version, name }) => ({ version, name })),
      );
    });

    it('is installed exactly once when five instances start at the same time', async () => {
      const fresh = await createTestDatabase();
      const pools = Array.from({ length: 5 }, () => {
        const pool = new pg.Pool({ connectionString: fresh.connectionString, max: 1 });
        // the forced drop below ends any connection still open; that must not crash the test run
        pool.on('error', () => undefined);
        return pool;
      });
      try {
        const applied = await Promise.all(
          pools.map((pool) => installEventStoreSchema(new PgPoolExecutor(pool))),
        );

        const versions = EVENT_STORE_MIGRATIONS.map((m) => m.version);
        expect(applied.filter((a) => a.length > 0)).toEqual([versions]);
        expect(applied.filter((a) => a.length === 0)).toHaveLength(4);
        const executor = new PgPoolExecutor(pools[0]!);
        expect((await recordedMigrations(executor)).map((m) => m.version)).toEqual(versions);
        const freshStore = await PostgresEventStore.open({ connectionString: fresh.connectionString });
        await freshStore.append('s', newEvents(2), NO_STREAM);
        expect(await freshStore.read('s')).toHaveLength(2);
        await freshStore.close();
      } finally {
        await Promise.all(pools.map((pool) => pool.end()));
        await fresh.drop();
      }
    });

    it('refuses a database whose recorded migration has another name', async () => {
      const error = await rejectionOf(
        applyMigrations(store.executor, [{ version: 1, name: 'something else', sql: 'select 1' }]),
      );
      expect(String(error)).toMatch(/recorded as "event tables"/);
    });

    it('runs executor transactions atomically (commit and rollback)', async () => {
      const table = `t_${randomUUID().replaceAll('-', '')}`;
      await store.executor.exec(`create table ${table} (n int)`);
      await store.executor.transaction(async (tx) => {
        await tx.query(`insert into ${table} values (1)`);
        await rejectionOf(
          tx.transaction(async (inner) => {
            await inner.query(`insert into ${table} values (2)`);
            throw new Error('nested rollback');
          }),
        );
      });
      await rejectionOf(
        store.executor.transaction(async (tx) => {
          await tx.query(`insert into ${table} values (3)`);
          throw new Error('rollback');
        }),
      );
      const { rows } = await store.executor.query<{ n: number }>(`select n from ${table}`);
      expect(rows).toEqual([{ n: 1 }]);
    });
  });
});

describeGroupCommit('PostgreSQL', () => openStore());
