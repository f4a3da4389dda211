// Crash series (docs/security.md "Fault survival"): real server processes are SIGKILLed under
// mixed claim/confirm load, LEDGER_CRASH_ROUNDS times each (default 20; `npm run soak:crash` runs
// 200): the embedded server on one PGlite data directory, restarted after every kill, and one of
// two PostgreSQL replicas sharing a database, restarted while the other serves. Workers retry the
// same request after a lost answer (as Retry-After asks). Afterwards every acknowledged claim and
// confirm is in its stream exactly once, no key was acquired twice, and the `operations` read model
// equals the folded streams once caught up.
import { PGlite } from '@electric-sql/pglite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/postgres-test-db.js';
import { letItWork, startClaimConfirmLoad, type RunningLoad } from './claim-confirm-load.js';
import {
  awaitCatchUp,
  expectHonestAnswers,
  readModelProblems,
  streamProblems,
  type RunSql,
} from './ledger-invariants.js';
import { issueKey, newAdminToken, spawnServer, stopGently, type ServerProcess } from './spawned-server.js';

const ROUNDS = Number(process.env['LEDGER_CRASH_ROUNDS'] ?? 20);
const TENANT = 'acme';
const ROUND_BUDGET_MS = 30_000; // a PGlite restart takes 2–3 s on a quiet machine, 10–20 s on a loaded one

describe(`embedded server (PGlite) SIGKILLed ${ROUNDS} times under load`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ledger-crash-'));
  const adminToken = newAdminToken();
  const env = { LEDGER_STORE: 'pglite', LEDGER_DATA_DIR: dataDir, LEDGER_ADMIN_TOKEN: adminToken };
  let server: ServerProcess | undefined;
  let load: RunningLoad | undefined;

  afterAll(async () => {
    await load?.stop();
    if (server) await stopGently(server);
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it(
    'keeps every acknowledged claim and confirm once, one acquisition per attempt, read model == streams',
    async () => {
      server = await spawnServer(env);
      const worker = await issueKey(server.url, adminToken, TENANT, ['worker']);
      const auditor = await issueKey(server.url, adminToken, '*', ['auditor']);
      let round = 0;
      load = startClaimConfirmLoad({
        url: () => server!.url,
        token: worker,
        tenant: TENANT,
        clients: 6,
        phase: () => `round-${round}`,
        retryPauseMs: 100,
      });
      for (round = 1; round <= ROUNDS; round++) {
        await letItWork(load.answers, 10);
        expect(await server.kill('SIGKILL')).toBe('SIGKILL');
        server = await spawnServer(env);
      }
      await letItWork(load.answers, 20);
      const answers = await load.stop();
      load = undefined;
      expectHonestAnswers(answers);
      await awaitCatchUp(server.url, auditor);
      expect(await readModelProblems(server.url, auditor, TENANT, answers)).toEqual([]);
      await stopGently(server);
      server = undefined;

      const db = new PGlite(dataDir);
      try {
        const sql: RunSql = async <T>(text: string) => (await db.query<T>(text)).rows;
        expect(await streamProblems(sql, TENANT, answers)).toEqual([]);
      } finally {
        await db.close();
      }
      const acked = answers.filter((a) => a.kind === 'claim' && a.status === 201).length;
      expect(acked).toBeGreaterThan(ROUNDS * 3);
      console.log(
        `PGlite crash series: ${ROUNDS} kills, ${answers.length} requests, ${acked} claims acknowledged`,
      );
    },
    ROUNDS * ROUND_BUDGET_MS + 60_000,
  );
});

describe(`one of two PostgreSQL replicas SIGKILLed ${ROUNDS} times under load`, () => {
  const adminToken = newAdminToken();
  let db: TestDatabase;
  const servers: (ServerProcess | null)[] = [null, null];
  let load: RunningLoad | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('ledger_crash');
  });
  afterAll(async () => {
    await load?.stop();
    for (const s of servers) if (s) await stopGently(s);
    await db?.drop();
  }, 60_000);

  it(
    'keeps every acknowledged claim and confirm once, one acquisition per attempt, read model == streams',
    async () => {
      const env = {
        LEDGER_STORE: 'postgres',
        DATABASE_URL: db.connectionString,
        LEDGER_POOL_SIZE: '6',
        LEDGER_ADMIN_TOKEN: adminToken,
        LEDGER_PROJECTOR_LOCK_POLL_MS: '200',
        LEDGER_DATA_DIR: mkdtempSync(join(tmpdir(), 'ledger-crash-pg-')),
      };
      servers[0] = await spawnServer(env);
      servers[1] = await spawnServer(env);
      const worker = await issueKey(servers[0].url, adminToken, TENANT, ['worker']);
      const auditor = await issueKey(servers[0].url, adminToken, '*', ['auditor']);
      let round = 0;
      let next = 0;
      load = startClaimConfirmLoad({
        // Round-robin over the replicas that are up, as a load balancer would.
        url: () => {
          const live = servers.filter((s): s is ServerProcess => s !== null);
          return live[next++ % live.length]!.url;
        },
        token: worker,
        tenant: TENANT,
        clients: 8,
        phase: () => `round-${round}`,
        retryPauseMs: 100,
      });
      for (round = 1; round <= ROUNDS; round++) {
        await letItWork(load.answers, 10);
        const victim = round % 2;
        const dying = servers[victim]!;
        servers[victim] = null;
        expect(await dying.kill('SIGKILL')).toBe('SIGKILL');
        servers[victim] = await spawnServer(env);
      }
      await letItWork(load.answers, 20);
      const answers = await load.stop();
      load = undefined;
      expectHonestAnswers(answers);
      await awaitCatchUp(servers[0]!.url, auditor);
      expect(await readModelProblems(servers[1]!.url, auditor, TENANT, answers)).toEqual([]);
      const sql: RunSql = async <T>(text: string) => {
        const client = new pg.Client({ connectionString: db.connectionString });
        await client.connect();
        try {
          return (await client.query(text)).rows as T[];
        } finally {
          await client.end();
        }
      };
      expect(await streamProblems(sql, TENANT, answers)).toEqual([]);
      const acked = answers.filter((a) => a.kind === 'claim' && a.status === 201).length;
      expect(acked).toBeGreaterThan(ROUNDS * 3);
      console.log(
        `PostgreSQL replica crash series: ${ROUNDS} kills, ${answers.length} requests, ${acked} claims acknowledged`,
      );
    },
    ROUNDS * ROUND_BUDGET_MS + 60_000,
  );
});
