// The embedded store on a data directory runs PGlite on a worker thread: the request thread
// (HTTP, the claim path) keeps serving while a statement runs, and statements, errors and
// transactions behave as they did in-process (docs/decisions.md "The embedded database runs on a worker thread").
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_STREAM } from '../../src/event-store/event-store.port.js';
import {
  createPgliteEventStore,
  type PgliteEventStore,
} from '../../src/event-store/postgres/pglite-event-store.js';
import { constraintOf, sqlStateOf } from '../../src/event-store/sql/sql-error.js';
import { seedPgliteDataDir } from '../support/pglite-snapshot.js';
import { describeGroupCommit } from './group-commit.contract.js';
import { ids, newEvents, streamName } from './event-store-test-kit.js';
import { PGLITE_SHARED_BUFFERS } from '../../src/event-store/postgres/pglite-start-params.js';

const START_TIMEOUT = 30_000;
const dataDirs: string[] = [];

// A new directory holds a fresh cluster before the store opens it: the tests' initdb dump unpacked
// by the system's tar (no initdb each time). Not PGlite's `loadDataDir` on a directory, which
// unpacks the 40 MB dump inside the WebAssembly's file system: ≈ 3 CPU-s a start instead of ≈ 1.2
// (that path is tested in pglite.int.spec.ts).
async function newDataDir(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ledger-pglite-thread-'));
  dataDirs.push(dataDir);
  await seedPgliteDataDir(dataDir);
  return dataDir;
}

// One store on one data directory for every test of this file (a start costs ≈ 1.2 CPU-s): the
// group commit suite uses unique stream names, the tests below their own table and stream, and the
// last test closes it and reopens its directory.
let shared: Promise<{ dataDir: string; store: PgliteEventStore }> | undefined;
function sharedStore(): Promise<{ dataDir: string; store: PgliteEventStore }> {
  shared ??= (async () => {
    const dataDir = await newDataDir();
    return { dataDir, store: await createPgliteEventStore({ dataDir }) };
  })();
  return shared;
}

afterAll(async () => {
  await (await shared?.catch(() => undefined))?.store.close();
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
});

describeGroupCommit('PGlite on a data directory', async () => (await sharedStore()).store, {
  keepOpen: true,
});

describe('PGlite on a data directory', () => {
  let dataDir: string;
  let store: PgliteEventStore;

  beforeAll(async () => {
    ({ dataDir, store } = await sharedStore());
    await store.executor.exec('create table thread_items (id int primary key, doc jsonb, n int8)');
  }, START_TIMEOUT);

  it('keeps the request thread serving while a slow statement runs', async () => {
    const order: string[] = [];
    // about a second of PostgreSQL CPU
    const slow = store.executor
      .query('select count(*) from generate_series(1, 8000000)')
      .then(() => order.push('slow statement done'));
    // what a request does meanwhile: a turn of the event loop after the statement started
    await new Promise((resolve) => setTimeout(resolve, 20));
    order.push('request served');
    await slow;
    expect(order).toEqual(['request served', 'slow statement done']);
  });

  it("starts PGlite with the ledger's buffer cache, not initdb's 128MB (see pglite-start-params.ts)", async () => {
    const { rows } = await store.executor.query<{ shared_buffers: string }>('show shared_buffers');
    expect(rows).toEqual([{ shared_buffers: PGLITE_SHARED_BUFFERS }]);
  });

  it('returns rows as in-process PGlite parses them (jsonb objects, int8 numbers)', async () => {
    const { rows } = await store.executor.query<{ doc: unknown; n: unknown; t: string }>(
      `select '{"a":[1,"x"]}'::jsonb as doc, 5::int8 as n, $1::text as t`,
      ['param'],
    );
    expect(rows).toEqual([{ doc: { a: [1, 'x'] }, n: 5, t: 'param' }]);
  });

  it('passes database errors through with their SQLSTATE and constraint', async () => {
    await store.executor.query('insert into thread_items (id) values (1)');
    const duplicate = await store.executor
      .query('insert into thread_items (id) values (1)')
      .catch((error: unknown) => error);
    expect(duplicate).toBeInstanceOf(Error);
    expect(sqlStateOf(duplicate)).toBe('23505');
    expect(constraintOf(duplicate)).toBe('thread_items_pkey');
    expect((duplicate as Error).message).toMatch(/duplicate key value/);
    const division = await store.executor.query('select 1 / 0').catch((error: unknown) => error);
    expect(sqlStateOf(division)).toBe('22012');
  });

  it('commits a transaction, rolls back a failed one and a failed savepoint', async () => {
    await store.executor.transaction(async (tx) => {
      await tx.query('insert into thread_items (id) values (10)');
      await tx
        .transaction(async (inner) => {
          await inner.query('insert into thread_items (id) values (11)');
          throw new Error('inner work failed');
        })
        .catch(() => undefined);
    });
    await expect(
      store.executor.transaction(async (tx) => {
        await tx.query('insert into thread_items (id) values (12)');
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    // a failed statement whose error the work swallowed: the commit rolls back
    await expect(
      store.executor.transaction(async (tx) => {
        await tx.query('insert into thread_items (id) values (13)');
        await tx.query('insert into thread_items (id) values (13)').catch(() => undefined);
      }),
    ).rejects.toThrow(/rolled back at commit/);
    const { rows } = await store.executor.query<{ id: number }>(
      'select id from thread_items where id >= 10 order by id',
    );
    expect(rows).toEqual([{ id: 10 }]);
  });

  it(
    'keeps what was appended across close and reopen, and releases the directory',
    async () => {
      const events = newEvents(3);
      const stream = streamName('thread-kept');
      await store.append(stream, events, NO_STREAM);
      await store.close();
      const reopened = await createPgliteEventStore({ dataDir });
      try {
        expect(ids(await reopened.read(stream))).toEqual(ids(events));
      } finally {
        await reopened.close();
      }
    },
    2 * START_TIMEOUT,
  );
});
