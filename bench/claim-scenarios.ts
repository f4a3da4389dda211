import type { IdempotencyTableBaseline } from './baseline-idempotency-table.js';
import { runLoad, type LoadOp } from './harness.js';
import type { LedgerAnswer, LedgerDriver } from './ledger-driver.js';
import type { Workload } from './workload.js';

/** The measured kinds of work, each with one op per path (baseline, in-process, HTTP). */
export type ScenarioKind = 'new' | 'duplicate' | 'cycle' | 'one-step';

/** One operation of each kind. */
export type ScenarioOps = Readonly<Record<ScenarioKind, LoadOp>>;

/** Key family of the seeded, already completed operations that duplicates repeat. */
const DUP_FAMILY = 'dup';

function expect(answer: LedgerAnswer, status: number, what: string): void {
  if (answer.status !== status) {
    const code = typeof answer.body?.type === 'string' ? answer.body.type.split('/').pop() : '';
    throw new Error(`${what}: expected ${status}, got ${answer.status} ${code}`);
  }
}

async function ledgerCycle(driver: LedgerDriver, workload: Workload, family: string): Promise<void> {
  const key = workload.freshKey(family);
  const claim = await driver.claim(key, workload.payload(key));
  expect(claim, 201, 'claim');
  const { operationId, fencingToken } = claim.body as { operationId: string; fencingToken: number };
  expect(await driver.startStep(operationId, fencingToken, 'create'), 200, 'step start');
  expect(await driver.confirm(operationId, fencingToken, `INV-${key.subject}`), 200, 'confirm');
}

/** The one-step job with the round-trip shortcuts: claim naming `startStep`, confirm naming `completeStep`. */
async function ledgerOneStep(driver: LedgerDriver, workload: Workload, family: string): Promise<void> {
  const key = workload.freshKey(family);
  const claim = await driver.claim(key, workload.payload(key), 'create');
  expect(claim, 201, 'claim');
  const { operationId, fencingToken } = claim.body as { operationId: string; fencingToken: number };
  const completeStep = { name: 'create', outputs: { id: `INV-${key.subject}` } };
  expect(await driver.confirm(operationId, fencingToken, `INV-${key.subject}`, completeStep), 200, 'confirm');
}

/**
 * Ledger ops through `driver`: `new` claims a never-seen key (201), `duplicate` repeats the claim
 * of one of `dupKeys` seeded, confirmed operations (200 replay), `cycle` is claim → step start →
 * confirm of a new key, `one-step` the same job in two commands (claim with `startStep`, confirm
 * with `completeStep`). New keys are drawn from families prefixed with `tag` (`<tag>-<kind>`), so
 * two drivers never share keys. Each op throws when the answer is not the expected one.
 */
export function ledgerOps(
  driver: LedgerDriver,
  workload: Workload,
  tag: string,
  dupKeys: number,
): ScenarioOps {
  return {
    new: async () => {
      const key = workload.freshKey(`${tag}-new`);
      expect(await driver.claim(key, workload.payload(key)), 201, 'new claim');
    },
    duplicate: async (index) => {
      const key = workload.key(DUP_FAMILY, index % dupKeys);
      const answer = await driver.claim(key, workload.payload(key));
      expect(answer, 200, 'duplicate claim');
      if (answer.body?.replayed !== true) throw new Error('duplicate claim: not a replay');
    },
    cycle: () => ledgerCycle(driver, workload, `${tag}-cycle`),
    'one-step': () => ledgerOneStep(driver, workload, `${tag}-one-step`),
  };
}

/** The hand-rolled claim + complete of a new key of `family` (INSERT + UPDATE). */
async function baselineCycle(baseline: IdempotencyTableBaseline, workload: Workload, family: string) {
  const key = workload.freshKey(family);
  const answer = await baseline.claim(key, workload.payload(key));
  if (answer.kind !== 'new') throw new Error(`baseline ${family}: got ${answer.kind}`);
  await baseline.complete(key, { destinationRef: `INV-${key.subject}` });
}

/**
 * Baseline ops on the hand-rolled table: `new` inserts a never-seen key, `duplicate` repeats one
 * of `dupKeys` seeded, completed keys (INSERT conflicts, then SELECT), `cycle` and `one-step`
 * insert a new key and store its response (INSERT + UPDATE: the hand-rolled job has no steps, so
 * both are its claim + complete).
 */
export function baselineOps(
  baseline: IdempotencyTableBaseline,
  workload: Workload,
  dupKeys: number,
): ScenarioOps {
  return {
    new: async () => {
      const key = workload.freshKey('base-new');
      const answer = await baseline.claim(key, workload.payload(key));
      if (answer.kind !== 'new') throw new Error(`baseline new: got ${answer.kind}`);
    },
    duplicate: async (index) => {
      const key = workload.key(DUP_FAMILY, index % dupKeys);
      const answer = await baseline.claim(key, workload.payload(key));
      if (answer.kind !== 'duplicate') throw new Error(`baseline duplicate: got ${answer.kind}`);
    },
    cycle: () => baselineCycle(baseline, workload, 'base-cycle'),
    'one-step': () => baselineCycle(baseline, workload, 'base-one-step'),
  };
}

/**
 * Completes keys 0 … `count` − 1 of `family` in the ledger (claim → step start → confirm through
 * `driver`) at `concurrency` clients.
 * @throws Error when any seeding operation fails.
 */
export async function seedLedgerKeys(
  driver: LedgerDriver,
  workload: Workload,
  family: string,
  count: number,
  concurrency: number,
): Promise<void> {
  const result = await runLoad(
    async (index) => {
      const key = workload.key(family, index);
      const claim = await driver.claim(key, workload.payload(key));
      expect(claim, 201, 'seed claim');
      const { operationId, fencingToken } = claim.body as { operationId: string; fencingToken: number };
      expect(await driver.startStep(operationId, fencingToken, 'create'), 200, 'seed step start');
      expect(await driver.confirm(operationId, fencingToken, `INV-${key.subject}`), 200, 'seed confirm');
    },
    { concurrency, ops: count },
  );
  if (result.errors > 0) throw new Error(`seeding ${family} failed: ${result.firstError}`);
}

/**
 * Completes the `count` duplicate keys in both the ledger (claim → step start → confirm through
 * `driver`) and the baseline table (insert + response), at `concurrency` clients.
 * @throws Error when any seeding operation fails.
 */
export async function seedDuplicates(
  driver: LedgerDriver,
  baseline: IdempotencyTableBaseline,
  workload: Workload,
  count: number,
  concurrency: number,
): Promise<void> {
  await seedLedgerKeys(driver, workload, DUP_FAMILY, count, concurrency);
  const seedBaseline = async (index: number) => {
    const key = workload.key(DUP_FAMILY, index);
    await baseline.claim(key, workload.payload(key));
    await baseline.complete(key, { destinationRef: `INV-${key.subject}` });
  };
  const result = await runLoad(seedBaseline, { concurrency, ops: count });
  if (result.errors > 0) throw new Error(`seeding duplicates failed: ${result.firstError}`);
}
