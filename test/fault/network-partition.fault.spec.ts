// Network partitions (docs/production-ha.md "What clients see during a failover"): PostgreSQL in
// one network namespace, a ledger process in a second, the workers (claim/confirm load) in a third;
// all traffic between them crosses the test's own TCP proxies in the root namespace (this machine
// has no netem qdisc and no netfilter tools). Under load: the database link is cut (`ip link set …
// down`: packets vanish, connections hang) twice, the database's answers are blackholed one way
// (statements commit, answers are held), the workers' link is cut right after a confirm went
// through, the ledger's answers to the workers are held one way, then 200 ms ± 100 ms latency and
// 5 % loss on both paths. Checked as after the kill series: nothing acknowledged lost, no key
// acquired twice, read model == streams, every answer within the store timeout (plus the delay
// the workers' own path added), and no request left unanswered except across a cut workers' link.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acknowledged, letItWork, type LoadAnswer } from './claim-confirm-load.js';
import { startFaultProxy, type FaultProxy } from './fault-proxy.js';
import {
  awaitCatchUp,
  expectHonestAnswers,
  lateAnswers,
  readModelProblems,
  streamProblems,
} from './ledger-invariants.js';
import { startNamespacedLoad, type NamespacedLoad } from './namespaced-load.js';
import { startNamespacedPostgres, type NamespacedPostgres } from './namespaced-postgres.js';
import { issueKey, newAdminToken, spawnServer, type ServerProcess } from './spawned-server.js';
import { createTestNetwork, pidsIn, type TestNetwork } from './test-network.js';

const TENANT = 'acme';
const STORE_TIMEOUT_MS = 3000;
/** The workers' own timeout: a request sent into a cut link is given up and retried after it. */
const WORKER_TIMEOUT_MS = 8000;
const LATENCY = { delayMs: 200, jitterMs: 100, loss: 0.05, rtoMs: 400 };
/** Worst delay the workers' path adds to one answer under {@link LATENCY} (a lost chunk each way). */
const LATENCY_SLACK_MS = 2 * (LATENCY.delayMs + LATENCY.jitterMs + LATENCY.rtoMs);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let network: TestNetwork | undefined;
let db: NamespacedPostgres | undefined;
let server: ServerProcess | undefined;
let load: NamespacedLoad | undefined;
const proxies: FaultProxy[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'ledger-partition-'));

afterAll(async () => {
  load?.kill();
  await server?.kill('SIGKILL');
  for (const p of proxies.splice(0)) await p.close();
  await db?.destroy();
  for (const host of Object.values(network?.hosts ?? {})) {
    for (const pid of await pidsIn(host.netns)) {
      try {
        process.kill(pid, 'SIGKILL'); // our own children left in the namespace
      } catch {
        /* gone */
      }
    }
  }
  await network?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

it('keeps every acknowledged claim and confirm once, no double acquisition, answers within the deadline across partitions', async () => {
  network = await createTestNetwork(['db', 'ledger', 'workers']);
  const hosts = network.hosts;
  db = await startNamespacedPostgres(hosts.db!.netns, hosts.db!.address);
  await db.query('create database ledger');
  // The ledger reaches PostgreSQL only through dbPath; the workers reach the ledger only through workerPath.
  const dbPath = await startFaultProxy(
    { host: hosts.ledger!.gateway },
    { host: hosts.db!.address, port: 5432 },
  );
  proxies.push(dbPath);
  const adminToken = newAdminToken();
  server = await spawnServer(
    {
      LEDGER_STORE: 'postgres',
      DATABASE_URL: `postgres://postgres@${dbPath.host}:${dbPath.port}/ledger`,
      LEDGER_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
      LEDGER_POOL_SIZE: '6',
      LEDGER_ADMIN_TOKEN: adminToken,
      LEDGER_DATA_DIR: dataDir,
    },
    90_000,
    { netns: hosts.ledger!.netns, host: hosts.ledger!.address },
  );
  const ledgerPort = Number(new URL(server.url).port);
  const workerPath = await startFaultProxy(
    { host: hosts.workers!.gateway },
    { host: hosts.ledger!.address, port: ledgerPort },
  );
  proxies.push(workerPath);
  const worker = await issueKey(server.url, adminToken, TENANT, ['worker']);
  const auditor = await issueKey(server.url, adminToken, '*', ['auditor']);
  load = startNamespacedLoad(hosts.workers!.netns, {
    url: `http://${workerPath.host}:${workerPath.port}`,
    token: worker,
    tenant: TENANT,
    clients: 6,
    firstPhase: 'baseline',
    retryPauseMs: 100,
    hangMs: WORKER_TIMEOUT_MS,
  });
  const answers = load.answers;
  const timeline: string[] = [];
  const t0 = Date.now();
  const phase = (name: string) => {
    timeline.push(`${Date.now() - t0} ${name}`);
    load!.setPhase(name);
  };
  await letItWork(answers, 30);

  for (const cutMs of [5000, 20_000]) {
    phase(`db-cut-${cutMs / 1000}s`);
    await hosts.db!.cut();
    await sleep(cutMs);
    await hosts.db!.heal();
    phase('recovering');
    await letItWork(answers, 20);
  }

  phase('db-answers-held');
  dbPath.set({ blackhole: 'down' }); // statements reach PostgreSQL and commit; answers wait
  await sleep(6000);
  dbPath.set({});
  phase('recovering');
  await letItWork(answers, 20);

  // Cut the workers' link the moment a confirm has gone through to the ledger (requests sent
  // before the label are answered by then).
  phase('workers-cut');
  await sleep(1000);
  const confirmSent = new Promise<void>((resolve) =>
    workerPath.tap((chunk) => {
      if (chunk.includes('/confirm')) resolve();
    }),
  );
  await confirmSent;
  workerPath.tap(null);
  await hosts.workers!.cut();
  await sleep(WORKER_TIMEOUT_MS + 2000);
  await hosts.workers!.heal();
  phase('recovering');
  await letItWork(answers, 20);

  // Faults on the workers' path start a second after their label: what was sent before is answered.
  phase('answers-to-workers-held');
  await sleep(1000);
  workerPath.set({ blackhole: 'down' });
  await sleep(4000);
  workerPath.set({});
  phase('recovering');
  await letItWork(answers, 20);

  phase('latency-and-loss');
  await sleep(1000);
  dbPath.set(LATENCY);
  workerPath.set(LATENCY);
  await sleep(20_000);
  dbPath.set({});
  workerPath.set({});
  phase('healed');
  await letItWork(answers, 30);
  await load.stop();

  console.log(
    `timeline (ms): ${timeline.join(', ')}\nunanswered or slow: ${answers
      .filter((a) => a.status === 'hang' || a.ms > STORE_TIMEOUT_MS + 1000)
      .map((a) => `${a.kind} ${a.subject} ${a.status} ${a.phase} sent ${a.sentAt - t0} took ${a.ms}`)
      .join(', ')}`,
  );
  const inPhase = (p: string) => (a: LoadAnswer) => a.phase === p;
  const across = (p: string) => (a: LoadAnswer) => a.phase === p || a.phase === 'recovering';
  // Only a request sent across the cut workers' link may go unanswered (the worker retried it).
  expectHonestAnswers(answers.filter((a) => a.phase !== 'workers-cut'));
  // Within the store timeout plus a second, plus what the workers' own path added.
  const workerPathFault = (a: LoadAnswer) => ['workers-cut', 'answers-to-workers-held'].includes(a.phase);
  expect(
    lateAnswers(
      answers.filter((a) => !workerPathFault(a) && a.phase !== 'latency-and-loss'),
      STORE_TIMEOUT_MS + 1000,
    ),
  ).toEqual([]);
  expect(
    lateAnswers(answers.filter(inPhase('latency-and-loss')), STORE_TIMEOUT_MS + 1000 + LATENCY_SLACK_MS),
  ).toEqual([]);
  // The faults were real: 503s while the database was away, unanswered requests across the cut.
  expect(answers.filter((a) => a.phase.startsWith('db-cut') && a.status === 503).length).toBeGreaterThan(0);
  expect(answers.filter((a) => a.phase === 'db-answers-held' && a.status === 503).length).toBeGreaterThan(0);
  expect(
    answers.filter((a) => a.phase === 'workers-cut' && typeof a.status !== 'number').length,
  ).toBeGreaterThan(0);
  expect(answers.filter((a) => across('latency-and-loss')(a) && a.status === 201).length).toBeGreaterThan(0);

  const sql = <T>(text: string) => db!.query(text, 'ledger') as Promise<T[]>;
  expect(await streamProblems(sql, TENANT, answers)).toEqual([]);
  await awaitCatchUp(server.url, auditor);
  expect(await readModelProblems(server.url, auditor, TENANT, answers)).toEqual([]);

  const { claims, confirms } = acknowledged(answers);
  const count = (f: (a: LoadAnswer) => boolean) => answers.filter(f).length;
  console.log(
    `network partitions: ${answers.length} requests, ${claims.length} claims and ${confirms.length} confirms acknowledged; ` +
      `503: ${count((a) => a.status === 503)}; unanswered (worker timeout): ${count((a) => a.status === 'hang')}; ` +
      `network errors: ${count((a) => a.status === 'network-error')}; slowest answer outside workers-path faults: ` +
      `${Math.max(...answers.filter((a) => !workerPathFault(a) && typeof a.status === 'number').map((a) => a.ms))} ms; ` +
      `per phase: ${JSON.stringify(
        Object.fromEntries(
          [...new Set(answers.map((a) => a.phase))].map((p) => [
            p,
            `${count(inPhase(p))} req, ${count((a) => inPhase(p)(a) && a.status === 503)}×503`,
          ]),
        ),
      )}`,
  );
}, 300_000);
