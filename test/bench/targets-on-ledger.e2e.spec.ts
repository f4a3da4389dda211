// Benchmark operations against a real ledger. The one-step job (the round-trip
// shortcuts): the raw HTTP target of bench:http, its SDK twin (which bench:claims' HTTP path runs
// too) and the in-process scenario of bench:claims must each leave confirmed operations with the
// step completed, in the number of requests its row claims. bench:claims' HTTP duplicates repeat
// keys the benchmark completed in process, named alike by the load generator's workload.
import { operationIdOf } from '@operation-ledger/client';
import { Pool, getGlobalDispatcher, setGlobalDispatcher, type Dispatcher } from 'undici';
import { ledgerOps, seedLedgerKeys } from '../../bench/claim-scenarios.js';
import { probeOneStep } from '../../bench/http/one-step-probe.js';
import { duplicateFamilyOf, targetOp, type OpContext } from '../../bench/http/target-ops.js';
import { targetById } from '../../bench/http/targets.js';
import { inProcessDriver } from '../../bench/ledger-in-process.js';
import { Workload } from '../../bench/workload.js';
import { startTestLedger, type TestLedger } from '../support/test-ledger.js';

let ledger: TestLedger;
let token: string;
beforeAll(async () => {
  ledger = await startTestLedger('pglite');
  token = (await ledger.createKey({ tenant: 'bench-gmbh', roles: ['worker'], name: 'bench' })).token;
});
afterAll(() => ledger.close());

/** An undici Pool that counts the requests dispatched through it (by `request` and by `fetch`). */
class CountingPool extends Pool {
  requests = 0;
  /** `GET /health` requests: the SDK asks for the ledger's capabilities once per client. */
  capabilityAsks = 0;
  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (options.path === '/health') this.capabilityAsks++;
    else this.requests++;
    return super.dispatch(options, handler);
  }
}

async function withContext<T>(
  workload: Workload,
  family: string,
  use: (ctx: OpContext, pool: CountingPool) => Promise<T>,
): Promise<T> {
  const pool = new CountingPool(ledger.url, { connections: 4 });
  const ctx: OpContext = {
    pool,
    url: ledger.url,
    server: 'ledger-pglite',
    tokens: [token],
    workload,
    family,
    dupKeys: 1,
  };
  try {
    return await use(ctx, pool);
  } finally {
    await pool.close();
  }
}

/** How many of the first `n` keys of `family` are confirmed operations with step `create` completed. */
async function confirmedWithStep(workload: Workload, family: string, n: number): Promise<number> {
  let confirmed = 0;
  for (let i = 0; i < n; i++) {
    const status = await ledger.client.get(`/v1/operations/${operationIdOf(workload.key(family, i))}`);
    const steps = (status.body.steps ?? []) as { step: string; status: string }[];
    if (
      status.body.state === 'confirmed' &&
      steps.some((s) => s.step === 'create' && s.status === 'completed')
    )
      confirmed++;
  }
  return confirmed;
}

it("bench:http's raw one-step job runs on a ledger with the shortcuts (the probe finds no reason to skip it)", async () => {
  const workload = new Workload();
  const reason = await withContext(workload, 'probe', (ctx) => probeOneStep(ctx));
  expect(reason).toBeNull();
  expect(await confirmedWithStep(workload, 'probe', 1)).toBe(1);
});

it.each(['pglite-one-step', 'pglite-sdk-one-step'])(
  'target %s confirms one operation with its step completed per job, in the requests its row declares',
  async (id) => {
    const target = targetById(id);
    const workload = new Workload();
    await withContext(workload, id, async (ctx, pool) => {
      // The SDK sends on its own connections, through undici's global dispatcher when one is set.
      const before = getGlobalDispatcher();
      setGlobalDispatcher(pool);
      try {
        const op = targetOp(target.op, ctx);
        for (let i = 0; i < 5; i++) await op(i);
      } finally {
        setGlobalDispatcher(before);
      }
      expect(pool.requests).toBe(5 * target.requests);
      // packages/client/README.md "Capabilities": one ask per client, not one per job.
      expect(pool.capabilityAsks).toBe(id.includes('sdk') ? 1 : 0);
    });
    expect(target.requests).toBe(2);
    expect(await confirmedWithStep(workload, id, 5)).toBe(5);
  },
);

it("bench:claims' in-process one-step scenario confirms the operation and completes its step", async () => {
  const workload = new Workload();
  const ops = ledgerOps(inProcessDriver(ledger.app, ledger.config), workload, 'inproc', 1);
  for (let i = 0; i < 3; i++) await ops['one-step'](i);
  expect(await confirmedWithStep(workload, 'inproc-one-step', 3)).toBe(3);
});

it("bench:claims' HTTP duplicates replay the keys completed in process (the load generator shares the run tag)", async () => {
  const workload = new Workload();
  const driver = inProcessDriver(ledger.app, ledger.config);
  await seedLedgerKeys(driver, workload, duplicateFamilyOf('ledger-pglite'), 3, 2);
  const generator = new Workload(workload.runTag);
  await withContext(generator, 'pglite-dup', async (ctx) => {
    const op = targetOp(targetById('pglite-dup').op, { ...ctx, dupKeys: 3 });
    for (let i = 0; i < 6; i++) await op(i); // throws unless each answer is a 200 replay
  });
  const first = await ledger.client.get(
    `/v1/operations/${operationIdOf(workload.key(duplicateFamilyOf('ledger-pglite'), 0))}/history`,
  );
  const claims = (first.body.events as { type: string }[]).filter((e) => e.type === 'OperationClaimed');
  expect(claims).toHaveLength(1);
});

it("bench:http's new-key claims hold their lease for an hour, so none is swept while a later row is measured", async () => {
  const workload = new Workload();
  const before = Date.now();
  await withContext(workload, 'lease', async (ctx) => {
    await targetOp(targetById('pglite-new').op, ctx)(0);
  });
  const path = `/v1/operations/${operationIdOf(workload.key('lease', 0))}`;
  let lease: { expiresAt?: string } | undefined;
  // The status view is a projection: give it up to 5 s to show the claim.
  for (let i = 0; i < 50 && !lease; i++) {
    const status = await ledger.client.get(path);
    lease = (status.body as { lease?: { expiresAt?: string } }).lease;
    if (!lease) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // An hour less the time the claim took (the default lease is 30 s).
  expect(Date.parse(String(lease?.expiresAt)) - before).toBeGreaterThan(3_500_000);
});
