// Real projector processes on PostgreSQL: SIGKILL mid catch-up and restart gives exact counts;
// two instances never apply an event twice, and one takes over when the other dies.
import { randomBytes } from 'node:crypto';
import { PostgresEventStore } from '../../src/event-store/postgres/postgres-event-store.js';
import { READ_MODEL_NAMES } from '../../src/projections/read-models.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';
import { seedOperations } from './support/seed-operations.js';
import { readEverything } from './support/oracle.js';
import { expectConsistentAtCheckpoints, expectReadModelsMatch, type P1Store } from './support/p1-scenario.js';
import { buildProjector, type ProjectorProcess, startProjectorProcess } from './support/projector-process.js';
import { checkpoints } from './support/snapshot.js';
import { waitFor, waitForCaughtUp } from './support/wait-for.js';

const running: ProjectorProcess[] = [];
const databases: TestDatabase[] = [];
const stores: PostgresEventStore[] = [];

beforeAll(() => {
  buildProjector();
});
afterAll(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all(running.map((p) => p.exited));
  for (const s of stores) await s.close();
  for (const d of databases) await d.drop();
});

async function freshStore(operations: number): Promise<{ p: P1Store; url: string; tag: string }> {
  const db = await createTestDatabase('ledger_projector');
  databases.push(db);
  const store = await PostgresEventStore.open({ connectionString: db.connectionString, poolSize: 6 });
  stores.push(store);
  const tag = randomBytes(3).toString('hex');
  await seedOperations(store, tag, 0, operations);
  return { p: { store, cleanup: () => store.close() }, url: db.connectionString, tag };
}

async function start(url: string): Promise<ProjectorProcess> {
  const p = await startProjectorProcess(url);
  running.push(p);
  return p;
}

async function holders(p: P1Store): Promise<Record<string, number | null>> {
  const { rows } = await p.store.executor.query<{ name: string; holder: string | null }>(
    'select name, holder from ledger_projections',
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.holder ? Number(r.holder.split(':').at(-2)) : null]));
}

describe('projector process killed with SIGKILL mid catch-up', () => {
  it('restarts and ends with exact counts', async () => {
    const { p, url } = await freshStore(2000);
    const first = await start(url);
    // Kill as soon as it has committed something, long before it caught up.
    await waitFor(
      async () => {
        const cp = await checkpoints(p.store.executor).catch(() => ({}) as Record<string, bigint>);
        return (cp.operations ?? -1n) > -1n;
      },
      'a first checkpoint',
      20_000,
      5,
    );
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');

    const events = await readEverything(p.store);
    const atKill = await expectConsistentAtCheckpoints(p, events);
    expect(atKill.operations!).toBeLessThan(events[events.length - 1]!.globalPosition);

    const second = await start(url);
    await waitForCaughtUp(p.store, p.store.executor, READ_MODEL_NAMES, 60_000);
    await expectReadModelsMatch(p, events);
    expect(Object.values(await holders(p)).every((pid) => pid === second.pid)).toBe(true);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);
});

describe('two projector instances on one PostgreSQL', () => {
  it('apply every event once between them and take over when the holder dies', async () => {
    const { p, url, tag } = await freshStore(1200);
    const [a, b] = await Promise.all([start(url), start(url)]);
    const arriving = seedOperations(p.store, tag, 1200, 1500, 30);
    const held = await waitFor(async () => {
      const h = await holders(p);
      return READ_MODEL_NAMES.every((n) => h[n] === a.pid || h[n] === b.pid) ? h : null;
    }, 'every read model held');
    // Exactly one session holds each read model's advisory lock.
    const { rows } = await p.store.executor.query<{ n: number }>(
      `select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 1280332626 and granted and database = (select oid from pg_database where datname = current_database())`,
    );
    expect(rows[0]!.n).toBe(READ_MODEL_NAMES.length);

    const victim = held.operations === a.pid ? a : b;
    const survivor = victim === a ? b : a;
    victim.child.kill('SIGKILL');
    await victim.exited;
    await waitFor(
      async () => (await holders(p)).operations === survivor.pid,
      'takeover of operations',
      20_000,
    );

    await arriving;
    await waitForCaughtUp(p.store, p.store.executor, READ_MODEL_NAMES, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\nsurvivor's output:\n${survivor.output()}`, { cause: error });
    });
    await expectReadModelsMatch(p, await readEverything(p.store));
    expect(Object.values(await holders(p)).every((pid) => pid === survivor.pid)).toBe(true);
    survivor.child.kill('SIGTERM');
    await survivor.exited;
  }, 90_000);
});
