// PostgreSQL high availability (docs/production-ha.md): a
// primary and a synchronous streaming standby on this machine, a ledger on a DATABASE_URL naming
// both (`target_session_attrs=read-write`), claim/confirm load; the primary is killed (`pg_ctl stop
// -m immediate`) and the standby promoted. Requests answer 503 + Retry-After while switching (never
// a hang, never a 500), the ledger finds the new primary by itself, every acknowledged claim and
// confirm is there exactly once, nothing is acquired twice, and the projectors and the lease
// sweeper take their advisory locks again on the new primary. Both servers are removed afterwards.
import { PROJECTOR_LOCK_CLASS } from '../../src/projections/core/pg-projection-database.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';
import { acknowledged, loadKey, startClaimConfirmLoad, type LoadAnswer } from './claim-confirm-load.js';
import { awaitCatchUp, readModelProblems, streamProblems } from './ledger-invariants.js';
import { startReplicaPair, type ReplicaPair } from './pg-replica-pair.js';

const TENANT = 'acme';
let pair: ReplicaPair | undefined;
let ledger: TestLedger | undefined;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  pair = await startReplicaPair();
  await pair.primary.query('create database ledger');
  const hosts = `127.0.0.1:${pair.primary.port},127.0.0.1:${pair.standby.port}`;
  ledger = await startTestLedger('postgres', {
    databaseUrl: `postgresql://postgres@${hosts}/ledger?target_session_attrs=read-write`,
    poolSize: 8,
    storeTimeoutMs: 3000,
    sweepIntervalMs: 300,
    projectorPollMs: 200,
    projectorLockPollMs: 200,
  });
}, 180_000);

afterAll(async () => {
  await ledger?.close().catch(() => undefined);
  await pair?.destroy();
}, 120_000);

it('fails over to the promoted standby under claim/confirm load: 503 while switching, nothing lost or doubled', async () => {
  const token = (await ledger!.createKey({ tenant: TENANT, roles: ['worker'], name: 'ha-load' })).token;
  let phase = 'before';
  const load = startClaimConfirmLoad({
    url: () => ledger!.url,
    token,
    tenant: TENANT,
    clients: 8,
    phase: () => phase,
  });
  const health: { phase: string; status: number }[] = [];
  const answers: LoadAnswer[] = load.answers;
  const acked = (p: string) => answers.filter((a) => a.phase === p && a.status === 201).length;
  try {
    while (acked('before') < 100) await sleep(100);
    phase = 'switching';
    await pair!.crashPrimary();
    for (let i = 0; i < 6; i++) {
      health.push({ phase, status: (await ledger!.client.get('/health/ready')).status });
      await sleep(250);
    }
    await pair!.promoteStandby();
    const deadline = Date.now() + 60_000;
    while (!answers.some((a) => a.phase === 'switching' && a.status === 201) && Date.now() < deadline)
      await sleep(100);
    phase = 'after';
    while (acked('after') < 150 && Date.now() < deadline) await sleep(100);
    health.push({ phase, status: (await ledger!.client.get('/health/ready')).status });
  } finally {
    await load.stop();
  }

  // Never a hang, a dropped connection or a 500; every 503 says when to retry.
  expect(answers.filter((a) => typeof a.status !== 'number')).toEqual([]);
  expect(answers.filter((a) => ![200, 201, 409, 503].includes(a.status as number))).toEqual([]);
  const unavailable = answers.filter((a) => a.status === 503);
  expect(unavailable.filter((a) => !(Number(a.retryAfter) >= 1))).toEqual([]);
  expect(answers.filter((a) => a.phase === 'switching' && a.status === 503).length).toBeGreaterThan(0);
  expect(health.filter((h) => h.phase === 'switching').map((h) => h.status)).toContain(503);
  // Reconnected by itself to the new primary.
  expect(acked('after')).toBeGreaterThanOrEqual(150);
  expect(health.at(-1)).toEqual({ phase: 'after', status: 200 });
  const standby = pair!.standby;
  expect((await standby.query<{ r: boolean }>('select pg_is_in_recovery() r'))[0]!.r).toBe(false);

  // Every acknowledged claim/confirm is on the new primary exactly once; nothing acquired twice.
  const sql = <T>(text: string) => standby.query(text, 'ledger') as Promise<T[]>;
  expect(await streamProblems(sql, TENANT, answers)).toEqual([]);
  const { claims, confirms } = acknowledged(answers);
  expect(confirms.length).toBeGreaterThan(200);
  // A claim answered 503 that never got a 201 may have committed (answer lost) or not: its retry
  // finds it (409) or acquires it now (201), never a second OperationClaimed.
  const worker = ledger!.client.as(token);
  const inDoubt = [...new Set(unavailable.map((a) => a.subject))].filter((s) => !claims.includes(s));
  for (const subject of inDoubt) {
    expect([200, 201, 409]).toContain((await worker.claim(loadKey(TENANT, subject), { subject })).status);
  }
  expect(await streamProblems(sql, TENANT, answers)).toEqual([]);

  // Projectors and the sweeper resumed on the new primary: their advisory locks are held there,
  // the read model caught up and equals the streams, and an expired lease is swept.
  await awaitCatchUp(ledger!.url, ledger!.rootToken);
  expect(await readModelProblems(ledger!.url, ledger!.rootToken, TENANT, answers)).toEqual([]);
  const locks = await standby.query<{ n: number }>(
    `select count(*)::int n from pg_locks where locktype = 'advisory' and classid = ${PROJECTOR_LOCK_CLASS} and granted`,
  );
  expect(locks[0]!.n).toBeGreaterThanOrEqual(2); // operations read model + lease-sweeper job, at least
  const short = await worker.claim(loadKey(TENANT, 'after-failover-lease'), {}, { leaseMs: 1000 });
  expect(short.status).toBe(201);
  await awaitCatchUp(ledger!.url, ledger!.rootToken);
  ledger!.clock.advance(5000);
  let state = '';
  for (let i = 0; i < 100 && state !== 'released'; i++) {
    await sleep(100);
    state = (await ledger!.client.status(short.body.operationId)).body.state;
  }
  expect(state).toBe('released');
  console.log(
    `failover run: ${answers.length} requests; acknowledged ${claims.length} claims, ${confirms.length} confirms; ` +
      `503 = ${unavailable.length} (switching: ${answers.filter((a) => a.phase === 'switching').length} requests); ` +
      `in doubt after 503: ${inDoubt.length}`,
  );
}, 240_000);
