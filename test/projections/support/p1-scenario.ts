import { randomBytes } from 'node:crypto';
import type { RecordedEvent } from '../../../src/event-store/event-store.port.js';
import { DECISION_EVENT_TYPES } from '../../../src/ledger/index.js';
import type { SqlEventStore } from '../../../src/event-store/sql-event-store.js';
import { tableNames } from '../../../src/projections/core/read-model.js';
import { checkpointStore } from '../../../src/projections/core/checkpoint-store.js';
import { createProjectionRuntime } from '../../../src/projections/create-projection-runtime.js';
import { READ_MODEL_NAMES } from '../../../src/projections/read-models.js';
import { TENANTS } from './lifecycles.js';
import { seedOperations } from './seed-operations.js';
import { expectedOperations, expectedTotals, readEverything } from './oracle.js';
import { checkpoints, countRows, snapshotReadModels } from './snapshot.js';
import { waitFor, waitForCaughtUp } from './wait-for.js';

/** A store to run P1 on, and how to dispose of it. */
export interface P1Store {
  readonly store: SqlEventStore;
  cleanup(): Promise<void>;
}

/** Sizes of one P1 run. */
export interface P1Sizes {
  /** Operations seeded before the projector starts. */
  readonly seeded: number;
  /** Operations appended while it catches up. */
  readonly arriving: number;
}

/**
 * Asserts that the status view, review queue, metrics and conflict report hold exactly what the
 * events of the store up to `upTo` say (compared with an oracle folded straight from the store).
 */
export async function expectReadModelsMatch(p: P1Store, events: readonly RecordedEvent[]): Promise<void> {
  const sql = p.store.executor;
  const ops = expectedOperations(events);
  expect(await countRows(sql, 'ledger_rm_operations')).toBe(ops.size);
  const { rows } = await sql.query<{
    operation_id: string;
    state: string;
    attempt: number;
    destination_ref: string | null;
    duplicate_claims: number;
    payload_conflicts: number;
  }>(
    'select operation_id::text, state, attempt, destination_ref, duplicate_claims, payload_conflicts from ledger_rm_operations',
  );
  const mismatches = rows.filter((r) => {
    const op = ops.get(r.operation_id);
    return (
      !op ||
      op.state.status !== r.state ||
      op.state.attempt !== r.attempt ||
      (op.state.confirmation?.destinationRef ?? null) !== r.destination_ref ||
      op.duplicateClaims !== r.duplicate_claims ||
      op.payloadConflicts !== r.payload_conflicts
    );
  });
  expect(mismatches).toEqual([]);
  const unknown = [...ops.values()].filter((o) => o.state.status === 'unknown').length;
  const finalFailures = [...ops.values()].filter(
    (o) => o.state.status === 'failed' && o.state.retryable === false,
  ).length;
  const duplicateEffects = [...ops.values()].filter((o) =>
    o.state.duplicateEffects.some((d) => !d.acknowledged),
  ).length;
  const awaitingApproval = [...ops.values()].filter((o) => o.state.status === 'awaiting_approval').length;
  expect(await countRows(sql, 'ledger_rm_review_queue', `reason = 'awaiting_approval'`)).toBe(
    awaitingApproval,
  );
  expect(await countRows(sql, 'ledger_rm_review_queue', `reason = 'unknown_outcome'`)).toBe(unknown);
  expect(await countRows(sql, 'ledger_rm_review_queue', `reason = 'final_failure'`)).toBe(finalFailures);
  expect(await countRows(sql, 'ledger_rm_review_queue', `reason = 'duplicate_effect'`)).toBe(
    duplicateEffects,
  );
  expect(await countRows(sql, 'ledger_rm_conflicts')).toBe(
    events.filter((e) => e.type === 'PayloadConflictDetected').length,
  );
  for (const tenant of TENANTS) {
    const { rows: totals } = await sql.query<Record<string, string>>(
      `select sum(claims)::text as "claims", sum(duplicate_claims_prevented)::text as "duplicateClaimsPrevented",
              sum(replays)::text as "replays", sum(in_progress_refusals)::text as "inProgressRefusals",
              sum(awaiting_recovery_refusals)::text as "awaitingRecoveryRefusals", sum(payload_conflicts)::text as "payloadConflicts",
              sum(unknown_opened)::text as "unknownOpened", sum(unknown_resolved)::text as "unknownResolved",
              sum(duplicate_effects)::text as "duplicateEffects"
         from ledger_rm_metrics where tenant = $1 and bucket = $2`,
      [tenant, 'day'],
    );
    const actual = Object.fromEntries(Object.entries(totals[0]!).map(([k, v]) => [k, Number(v ?? 0)]));
    expect(actual).toEqual(expectedTotals(events, tenant));
  }
}

/**
 * Asserts that each read model holds exactly the events up to ITS checkpoint (as after a crash:
 * no event after it, none before it missing, none twice): status rows, metrics totals, conflicts.
 */
export async function expectConsistentAtCheckpoints(
  p: P1Store,
  events: readonly RecordedEvent[],
): Promise<Record<string, bigint>> {
  const sql = p.store.executor;
  const cp = await checkpoints(sql);
  const upTo = (position: bigint) => events.filter((e) => e.globalPosition <= position);
  expect(await countRows(sql, 'ledger_rm_operations')).toBe(expectedOperations(upTo(cp.operations!)).size);
  expect(await countRows(sql, 'ledger_rm_conflicts')).toBe(
    upTo(cp.conflicts!).filter((e) => e.type === 'PayloadConflictDetected').length,
  );
  const { rows } = await sql.query<{ n: string }>(
    `select coalesce(sum(claims), 0)::text as n from ledger_rm_metrics where bucket = 'day'`,
  );
  expect(Number(rows[0]!.n)).toBe(upTo(cp.metrics!).filter((e) => e.type === 'OperationClaimed').length);
  return cp;
}

/**
 * Scenario P1 (docs/development.md "Tests"): seed thousands of operations, start the projectors
 * from zero while new operations keep arriving, kill the operations projector mid catch-up (its
 * batch transaction aborts, as in a crash), restart: every event applied, counts exact, a
 * re-applied event changes nothing, rebuild equals incremental.
 */
export async function runP1(p: P1Store, sizes: P1Sizes): Promise<void> {
  const sql = p.store.executor;
  const tag = randomBytes(3).toString('hex');
  await seedOperations(p.store, tag, 0, sizes.seeded);
  let batches = 0;
  let killed!: () => void;
  const killedMidBatch = new Promise<void>((resolve) => (killed = resolve));
  const first = createProjectionRuntime(p.store, sql, {
    instanceId: 'first',
    batchSize: 300,
    pollMs: 50,
    retryMs: 10,
    beforeCommit: ({ model, shadow }) => {
      if (model !== 'operations' || shadow || ++batches !== 4) return;
      killed();
      throw new Error('killed in the middle of a batch');
    },
  });
  await first.start();
  const arriving = seedOperations(p.store, tag, sizes.seeded, sizes.seeded + sizes.arriving, 50);
  await killedMidBatch;
  await first.stop();

  // At the crash: exactly the events up to each checkpoint are applied — no gap, nothing twice.
  const everything = await readEverything(p.store);
  const atCrash = await expectConsistentAtCheckpoints(p, everything);
  expect(atCrash.operations!).toBeLessThan(everything[everything.length - 1]!.globalPosition);

  await arriving;
  const second = createProjectionRuntime(p.store, sql, {
    instanceId: 'second',
    batchSize: 500,
    rebuildBatchSize: 500,
    pollMs: 50,
  });
  try {
    await second.start();
    await waitForCaughtUp(p.store, sql, READ_MODEL_NAMES, 60_000);
    const events = await readEverything(p.store);
    expect(new Set(events.map((e) => (e.data as { operationId: string }).operationId)).size).toBe(
      sizes.seeded + sizes.arriving,
    );
    const seenTypes = new Set(events.map((e) => e.type));
    const projected = [...DECISION_EVENT_TYPES, 'DuplicateClaimPrevented', 'PayloadConflictDetected'];
    expect(projected.filter((type) => !seenTypes.has(type))).toEqual([]); // the seed covers every event type
    await expectReadModelsMatch(p, events);

    // A re-applied event changes nothing: hand already-applied events to every read model again.
    const before = await snapshotReadModels(sql);
    const replay = events.filter((_e, i) => i % 7 === 0);
    for (const name of READ_MODEL_NAMES) {
      const model = second.model(name)!;
      const prepared = model.prepare ? await model.prepare(replay) : undefined;
      await sql.transaction(async (tx) => {
        const record = await checkpointStore.lock(tx, name);
        await model.apply(tx, replay, tableNames(model, record.generation), prepared);
      });
    }
    expect(await snapshotReadModels(sql)).toEqual(before);

    // Rebuild from zero into shadow tables, swapped in when caught up: equals the incremental result.
    // Online: while the shadow tables fill, the views keep answering with the complete old tables.
    for (const name of READ_MODEL_NAMES) await second.rebuild(name, 'p1-test');
    let servedWhileRebuilding = 0;
    await waitFor(
      async () => {
        const status = await second.status();
        if (status.every((s) => s.rebuild === null && s.generation === 2)) return true;
        expect(await countRows(sql, 'ledger_rm_operations')).toBe(sizes.seeded + sizes.arriving);
        servedWhileRebuilding++;
        return false;
      },
      'rebuilds swapped in',
      60_000,
    );
    expect(servedWhileRebuilding).toBeGreaterThan(0);
    expect(await snapshotReadModels(sql)).toEqual(before);
  } finally {
    await second.stop();
  }
}
