import { setTimeout as sleep } from 'node:timers/promises';
import { planDeliveries } from '../github-deliveries.js';
import { loadGithubIntents } from '../github-intents.js';
import { keyText, type Delivery, type Intent } from '../intent.js';
import { ledgerClient, type LedgerEndpoint } from '../ledger-endpoint.js';
import { startLedger, type RunningLedger } from '../start-ledger.js';
import { TicketClient } from '../ticket-client.js';
import { startTicketSystem, type TicketSystem, type TicketSystemStats } from '../ticket-system.js';
import { checkIntents, type IntentCheck, type LedgerStory } from './chaos-check.js';
import type { ChaosOptions } from './chaos-options.js';
import { EvidenceRecovery, type EvidenceRecoveryStats } from './evidence-recovery.js';
import { KillPlanner, type KillPoint } from './kill-plan.js';
import { WorkerFleet, type FleetStats } from './worker-fleet.js';
import { WorkQueue, type WorkQueueStats } from './work-queue.js';

/** Everything a chaos run measured, and whether its claim holds. */
export interface ChaosReport {
  readonly options: ChaosOptions;
  readonly deliveries: number;
  readonly distinctIntents: number;
  readonly queue: WorkQueueStats;
  readonly fleet: FleetStats;
  readonly killsByPoint: Readonly<Record<KillPoint, number>>;
  readonly story: LedgerStory;
  readonly recovery: EvidenceRecoveryStats;
  /** Intents put back on the queue because nothing held them and they were not confirmed. */
  readonly reconciled: number;
  /** Tickets at the destination, counted over `GET /tickets`. */
  readonly ticketsCreated: number;
  readonly destination: TicketSystemStats;
  readonly checks: readonly IntentCheck[];
  /** An operation confirmed on `found` evidence, for its history. */
  readonly sampleOperationId: string | null;
  readonly durationMs: number;
  /** Every violated expectation; empty when the run proves its point. */
  readonly problems: readonly string[];
}

/** Starts the in-process ledger with the run's lease-sweeper interval (projector on, API key). */
export function startChaosLedger(options: ChaosOptions): Promise<RunningLedger> {
  return startLedger({ config: { sweepIntervalMs: options.sweepIntervalMs } });
}

/** Starts the ticket system (Idempotency-Key, lookup by externalRef) with the run's fault rate. */
export function startChaosTicketSystem(options: ChaosOptions): Promise<TicketSystem> {
  return startTicketSystem({
    seed: options.seed,
    slowAfterSaveRate: options.faultRate,
    faultDelayMs: options.ticketTimeoutMs + 250,
  });
}

/** How long the queue must stay idle with an unconfirmed, unheld intent before it is re-queued. */
const RECONCILE_AFTER_IDLE_MS = 5_000;
const SETTLE_POLL_MS = 200;

/**
 * The chaos run: GitHub webhook deliveries go onto a work queue that redelivers un-acked messages;
 * `options.workers` real worker processes consume it (claim → step start → ticket → confirm, short
 * leases, no renewals) while the parent SIGKILLs them at kill points and respawns replacements.
 * The ledger's lease sweeper turns expired leases into Released / Unknown; a recovery worker
 * settles the Unknown ones with evidence from the ticket system. Ends when every intent is
 * confirmed (or at the timeout), then counts tickets per intent at the destination.
 */
export async function runChaos(
  options: ChaosOptions,
  env: { readonly ledger: LedgerEndpoint; readonly ticketSystem: TicketSystem },
): Promise<ChaosReport> {
  const startedAt = Date.now();
  const catalogue = loadGithubIntents();
  const intents = catalogue.intents.slice(0, options.limit ?? catalogue.intents.length);
  const plan = planDeliveries(intents, { seed: options.seed, conflicts: 0 });
  const intentsByKey = new Map(intents.map((i) => [keyText(i.key), i] as const));
  const operationIds = new Map<string, string>();
  const ledger = ledgerClient(env.ledger);
  const tickets = new TicketClient(env.ticketSystem.url);

  const queue = new WorkQueue();
  const queueUrl = await queue.listen();
  let requeues = 0;
  const requeue = (intent: Intent, reason: 'recovery-not-found' | 'reconciler') => {
    // copy 0: not a sender's delivery but the intent put back by recovery (or the reconciler).
    const delivery: Delivery = {
      deliveryId: `requeue-${++requeues}`,
      intent,
      copy: 0,
      injectedConflict: false,
    };
    queue.publish(delivery, reason);
  };
  queue.onAck = (message, settlement) => {
    if (settlement.operationId)
      operationIds.set(keyText(message.delivery.intent.key), settlement.operationId);
  };
  for (const delivery of plan.batches.flat()) queue.publish(delivery, 'webhook');

  const planner = new KillPlanner(options);
  const fleet = new WorkerFleet(
    {
      size: options.workers,
      queueUrl,
      ledgerUrl: env.ledger.url,
      ledgerAuthorization: env.ledger.headers?.authorization,
      ticketsUrl: env.ticketSystem.url,
      leaseMs: options.leaseMs,
      ticketTimeoutMs: options.ticketTimeoutMs,
      inProgressBackoffMs: options.inProgressBackoffMs,
    },
    queue,
    planner,
    (checkpoint) => {
      const message = queue.message(checkpoint.tag);
      if (message && checkpoint.operationId)
        operationIds.set(keyText(message.delivery.intent.key), checkpoint.operationId);
    },
  );
  const recovery = new EvidenceRecovery({
    ledger,
    tickets,
    tenants: [...new Set(intents.map((i) => i.key.tenant))],
    intents: intentsByKey,
    requeue: (intent, operationId) => {
      operationIds.set(keyText(intent.key), operationId);
      requeue(intent, 'recovery-not-found');
    },
    intervalMs: options.recoveryIntervalMs,
  });

  let reconciled = 0;
  let recoveryStats: EvidenceRecoveryStats | undefined;
  fleet.start();
  recovery.start();
  try {
    const confirmed = new Set<string>();
    let idleSince: number | null = null;
    while (Date.now() - startedAt < options.timeoutMs) {
      await sleep(SETTLE_POLL_MS);
      if (!queue.idle) {
        idleSince = null;
        continue;
      }
      idleSince ??= Date.now();
      const pending: Intent[] = [];
      for (const intent of intents) {
        const id = keyText(intent.key);
        if (confirmed.has(id)) continue;
        const operationId = operationIds.get(id);
        const status = operationId ? await ledger.operations.get(operationId) : null;
        if (status?.state === 'confirmed') confirmed.add(id);
        else if (status?.state !== 'unknown') pending.push(intent); // unknown: recovery's part
      }
      if (confirmed.size === intents.length) break;
      // A safety net, expected to stay unused: nothing holds an unconfirmed intent any more.
      if (Date.now() - idleSince > RECONCILE_AFTER_IDLE_MS && pending.length > 0) {
        for (const intent of pending) requeue(intent, 'reconciler');
        reconciled += pending.length;
        idleSince = null;
      }
    }
  } finally {
    await fleet.stop();
    recoveryStats = await recovery.stop();
    await queue.close();
  }

  const records = await tickets.list();
  const { checks, story } = await checkIntents(intents, operationIds, records, ledger);
  const fleetStats = fleet.stats();
  const recoveryReport = recoveryStats!;
  const problems = findProblems({
    intents,
    records: records.length,
    checks,
    story,
    fleetStats,
    recoveryStats: recoveryReport,
  });
  return {
    options,
    deliveries: plan.deliveries,
    distinctIntents: intents.length,
    queue: queue.stats(),
    fleet: fleetStats,
    killsByPoint: planner.killsByPoint(),
    story,
    recovery: recoveryReport,
    reconciled,
    ticketsCreated: records.length,
    destination: env.ticketSystem.stats(),
    checks,
    sampleOperationId: recoveryReport.records.find((r) => r.verdict === 'found')?.operationId ?? null,
    durationMs: Date.now() - startedAt,
    problems,
  };
}

function findProblems(run: {
  intents: readonly Intent[];
  records: number;
  checks: readonly IntentCheck[];
  story: LedgerStory;
  fleetStats: FleetStats;
  recoveryStats: EvidenceRecoveryStats;
}): string[] {
  const problems: string[] = [];
  if (run.records !== run.intents.length) {
    problems.push(`tickets created (${run.records}) != distinct intents (${run.intents.length})`);
  }
  const unsettled = run.checks.filter((c) => !c.settled);
  if (unsettled.length > 0)
    problems.push(`${unsettled.length} intent(s) not confirmed with their single ticket`);
  if (run.story.duplicateEffects > 0)
    problems.push(`${run.story.duplicateEffects} duplicate effect(s) detected`);
  if (run.fleetStats.crashes.length > 0) problems.push(`${run.fleetStats.crashes.length} worker crash(es)`);
  if (run.recoveryStats.errors.length > 0)
    problems.push(...run.recoveryStats.errors.map((e) => `recovery: ${e}`));
  return problems;
}
