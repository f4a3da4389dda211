import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { NO_STREAM } from '../../src/event-store/event-store.port.js';
import {
  createPgliteEventStore,
  type PgliteEventStore,
} from '../../src/event-store/postgres/pglite-event-store.js';
import { PgliteExecutor } from '../../src/event-store/postgres/pglite-executor.js';
import {
  EVENT_STORE_MIGRATIONS,
  installEventStoreSchema,
} from '../../src/event-store/sql/event-store-schema.js';
import { SqlEventStore } from '../../src/event-store/sql-event-store.js';
import { describeEventStoreContract } from './event-store.contract.js';
import { describeGroupCommit } from './group-commit.contract.js';
import { ids, newEvents, readAllUntil, sleep, streamName } from './event-store-test-kit.js';
import { appendRaw, countStoredEvents, recordedMigrations } from './sql-test-kit.js';
import { pgliteSnapshot, seedPgliteDataDir } from '../support/pglite-snapshot.js';

const START_TIMEOUT = 30_000;

// In-memory stores start from a dump of an initialised, empty cluster (no initdb each time).
const openStore = async () => createPgliteEventStore({ loadDataDir: await pgliteSnapshot() });

// One in-memory store for the group commit suite, the contract and the tests below (each start
// costs ≈ 2 CPU-s): they all use unique stream names and read `readAll` only after their own
// marker or for their own events. The contract's close test opens a store of its own.
let shared: Promise<PgliteEventStore> | undefined;
const sharedStore = () => (shared ??= openStore());
afterAll(async () => (await shared?.catch(() => undefined))?.close());

describeGroupCommit('PGlite', sharedStore, { keepOpen: true });

let contractHasShared = false;
describeEventStoreContract('PGlite', async () => {
  // the suite's store first, then the close test's own one
  const own = contractHasShared;
  contractHasShared = true;
  const store = own ? await openStore() : await sharedStore();
  return {
    store,
    cleanup: async () => (own ? store.close() : undefined),
    countStored: (stream) => countStoredEvents(store.executor, stream),
  };
});

describe('PGlite event store', () => {
  let store: PgliteEventStore;

  beforeAll(async () => {
    store = await sharedStore();
  }, START_TIMEOUT);

  it('keeps readers on a consistent prefix while an append transaction is held open', async () => {
    const start = (await store.append(streamName('marker'), newEvents(1), NO_STREAM)).lastGlobalPosition;
    const before = newEvents(1);
    await store.append(streamName('before'), before, NO_STREAM);
    const held = newEvents(2);
    const after = newEvents(1);
    const timeline: string[] = [];
    let insideView: string[] = [];

    const heldStream = streamName('held');
    let insideCount = 0;

    const transaction = store.executor.transaction(async (tx) => {
      await appendRaw(tx, heldStream, held, 'no_stream');
      // Inside its own open transaction the append is visible to plain SQL, but not to readAll:
      // its transaction id is the snapshot's xmin, so everything from it on is still "in flight".
      insideCount = await countStoredEvents(tx, heldStream);
      const { rows } = await tx.query<{ event: { id: string } }>(
        'select event from ledger_read_all($1::text::bigint, 100)',
        [start.toString()],
      );
      insideView = rows.map((row) => row.event.id);
      await sleep(150);
      timeline.push('commit');
    });
    // Issued while the transaction is open: they wait for it (one connection), then see it all.
    const appendAfter = store.append(streamName('after'), after, NO_STREAM).then(() => {
      timeline.push('append after');
    });
    const readAll = store.readAll(start, 100).then((events) => {
      timeline.push('readAll');
      return events;
    });
    await Promise.all([transaction, appendAfter]);
    const outside = await readAll;

    expect(insideCount).toBe(2);
    expect(insideView).toEqual(ids(before));
    expect(timeline).toEqual(['commit', 'append after', 'readAll']);
    expect(ids(outside)).toEqual([...ids(before), ...ids(held), ...ids(after)]);
    expect(ids(await readAllUntil(store, start, 4))).toEqual(ids(outside));
  });

  it(
    'installs the schema once under concurrent installs and keeps events in a data directory',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'ledger-pglite-'));
      try {
        // a fresh cluster unpacked by the system's tar: PGlite's loadDataDir on a directory
        // (tested below) costs ≈ 2 CPU-s more
        await seedPgliteDataDir(dataDir);
        const db = new PGlite(dataDir);
        const executor = new PgliteExecutor(db);
        const applied = await Promise.all([1, 2, 3].map(() => installEventStoreSchema(executor)));
        const versions = EVENT_STORE_MIGRATIONS.map((m) => m.version);
        expect(applied).toEqual([versions, [], []]);
        const first = new SqlEventStore(executor, () => db.close());
        const events = newEvents(3);
        await first.append('persisted', events, NO_STREAM);
        await first.close();

        const reopened = await createPgliteEventStore({ dataDir });
        try {
          expect(ids(await reopened.read('persisted'))).toEqual(ids(events));
          expect(await installEventStoreSchema(reopened.executor)).toEqual([]);
          expect((await recordedMigrations(reopened.executor)).map((m) => m.version)).toEqual(versions);
        } finally {
          await reopened.close();
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    START_TIMEOUT,
  );

  it(
    'starts a new store from a data-directory dump (loadDataDir), in memory and in a directory, and installs the schema',
    async () => {
      const source = new PGlite({ loadDataDir: await pgliteSnapshot() });
      await source.exec("create table from_dump (v text); insert into from_dump values ('kept')");
      const dump = await source.dumpDataDir('none');
      await source.close();
      const dataDir = await mkdtemp(join(tmpdir(), 'ledger-pglite-'));
      try {
        for (const options of [{ loadDataDir: dump }, { dataDir, loadDataDir: dump }]) {
          const opened = await createPgliteEventStore(options);
          try {
            const { rows } = await opened.executor.query<{ v: string }>('select v from from_dump');
            expect(rows).toEqual([{ v: 'kept' }]);
            expect((await recordedMigrations(opened.executor)).map((m) => m.version)).toEqual(
              EVENT_STORE_MIGRATIONS.map((m) => m.version),
            );
          } finally {
            await opened.close();
          }
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    // Three PGlite instances start here, each as slow as one store's start on a loaded machine.
    3 * START_TIMEOUT,
  );
});
