// A frozen PostgreSQL primary (docs/production-ha.md "What clients see during a failover"): a
// primary and a synchronous standby, two ledger processes on a DATABASE_URL naming both
// (`target_session_attrs=read-write`), claim/confirm load; the primary's processes are SIGSTOPped
// — the kernel still accepts connections, nothing answers — then continued. Every request is
// answered within LEDGER_STORE_TIMEOUT_MS (plus a second of slack for a loaded machine): one
// deadline per request across the pool wait, the group-commit wait, connecting and retries, not
// one per step. Afterwards nothing acknowledged is lost, nothing acquired twice, read model ==
// streams.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acknowledged, startClaimConfirmLoad, type RunningLoad } from './claim-confirm-load.js';
import {
  awaitCatchUp,
  expectHonestAnswers,
  lateAnswers,
  readModelProblems,
  streamProblems,
} from './ledger-invariants.js';
import { startReplicaPair, type ReplicaPair } from './pg-replica-pair.js';
import { issueKey, newAdminToken, spawnServer, stopGently, type ServerProcess } from './spawned-server.js';

const TENANT = 'acme';
const STORE_TIMEOUT_MS = 3000;
const FROZEN_MS = 20_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let pair: ReplicaPair | undefined;
const servers: ServerProcess[] = [];
let load: RunningLoad | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'ledger-frozen-'));

beforeAll(async () => {
  pair = await startReplicaPair();
  await pair.primary.query('create database ledger');
}, 180_000);

afterAll(async () => {
  await load?.stop();
  pair?.thawPrimary();
  for (const s of servers.splice(0)) await stopGently(s, 10_000);
  await pair?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
}, 120_000);

it('answers every request within the store timeout while the primary is frozen; nothing lost or doubled', async () => {
  const hosts = `127.0.0.1:${pair!.primary.port},127.0.0.1:${pair!.standby.port}`;
  const adminToken = newAdminToken();
  const env = {
    LEDGER_STORE: 'postgres',
    DATABASE_URL: `postgresql://postgres@${hosts}/ledger?target_session_attrs=read-write`,
    LEDGER_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
    LEDGER_POOL_SIZE: '6',
    LEDGER_ADMIN_TOKEN: adminToken,
    LEDGER_PROJECTOR_LOCK_POLL_MS: '200',
    LEDGER_DATA_DIR: dataDir,
  };
  servers.push(await spawnServer(env));
  servers.push(await spawnServer(env));
  const worker = await issueKey(servers[0]!.url, adminToken, TENANT, ['worker']);
  const auditor = await issueKey(servers[0]!.url, adminToken, '*', ['auditor']);
  let phase = 'before';
  let next = 0;
  load = startClaimConfirmLoad({
    url: () => servers[next++ % servers.length]!.url,
    token: worker,
    tenant: TENANT,
    clients: 8,
    phase: () => phase,
    retryPauseMs: 100,
  });
  const answers = load.answers;
  const acked = (p: string) => answers.filter((a) => a.phase === p && a.status === 201).length;
  const until = Date.now() + 60_000;
  while (acked('before') < 100 && Date.now() < until) await sleep(100);
  phase = 'frozen';
  pair!.freezePrimary();
  await sleep(FROZEN_MS);
  pair!.thawPrimary();
  phase = 'after';
  while (acked('after') < 100 && Date.now() < until + FROZEN_MS + 60_000) await sleep(100);
  await load.stop();
  load = undefined;

  expectHonestAnswers(answers);
  expect(lateAnswers(answers, STORE_TIMEOUT_MS + 1000)).toEqual([]);
  expect(answers.filter((a) => a.phase === 'frozen' && a.status === 503).length).toBeGreaterThan(0);
  expect(acked('after')).toBeGreaterThanOrEqual(100);

  const sql = <T>(text: string) => pair!.primary.query(text, 'ledger') as Promise<T[]>;
  expect(await streamProblems(sql, TENANT, answers)).toEqual([]);
  await awaitCatchUp(servers[0]!.url, auditor);
  expect(await readModelProblems(servers[1]!.url, auditor, TENANT, answers)).toEqual([]);
  const frozen = answers.filter((a) => a.phase === 'frozen');
  console.log(
    `frozen primary (${FROZEN_MS} ms, store timeout ${STORE_TIMEOUT_MS} ms): ${answers.length} requests, ` +
      `${acknowledged(answers).claims.length} claims acknowledged; while frozen ${frozen.length} requests, ` +
      `${frozen.filter((a) => a.status === 503).length} answered 503, slowest answer ` +
      `${Math.max(...answers.map((a) => a.ms))} ms`,
  );
}, 300_000);
