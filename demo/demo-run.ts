import { DemoTally } from './demo-tally.js';
import { planDeliveries } from './github-deliveries.js';
import { loadGithubIntents } from './github-intents.js';
import { keyText } from './intent.js';
import { historyUrl, ledgerClient, type LedgerEndpoint } from './ledger-endpoint.js';
import { recoverUnknownOperations, type RecoveryReport } from './recovery.js';
import { TicketClient } from './ticket-client.js';
import { startTicketSystem, type TicketSystem, type TicketSystemStats } from './ticket-system.js';
import { processDelivery, type WorkerContext } from './worker.js';
import { runPool } from './worker-pool.js';

/** Knobs of one demo run (CLI flags map onto these; see demo-options.ts). */
export interface DemoOptions {
  readonly seed: number;
  /** Workers consuming the delivery queue in parallel. */
  readonly concurrency: number;
  /** Probability that a ticket create saves and then answers after the worker's timeout. */
  readonly faultRate: number;
  /** Probability that a ticket create is lost (nothing saved): exercises `not_found` + re-run. */
  readonly lostRate: number;
  /** Use at most this many distinct intents (all the examples yield, when undefined). */
  readonly limit?: number;
  /** Deliberately conflicting deliveries (same key, edited payload). */
  readonly conflicts: number;
  /** Worker's client timeout for the ticket system, ms. */
  readonly ticketTimeoutMs: number;
  /** Lease each claim asks for, ms (>= 1 000). */
  readonly leaseMs: number;
}

/** Defaults of `npm run demo`. */
export const DEFAULT_DEMO_OPTIONS: DemoOptions = {
  seed: 42,
  concurrency: 8,
  faultRate: 0.15,
  lostRate: 0.04,
  conflicts: 3,
  ticketTimeoutMs: 250,
  leaseMs: 5_000,
};

/** How much longer than the worker's timeout a faulty ticket answer is held back, ms. */
const FAULT_DELAY_MARGIN_MS = 250;

/** Starts the simulated ticket system with the faults the options ask for. */
export function startDemoTicketSystem(options: DemoOptions): Promise<TicketSystem> {
  return startTicketSystem({
    seed: options.seed,
    slowAfterSaveRate: options.faultRate,
    lostRate: options.lostRate,
    faultDelayMs: options.ticketTimeoutMs + FAULT_DELAY_MARGIN_MS,
  });
}

/** Everything a run measured, and whether its claim holds. */
export interface DemoReport {
  readonly options: DemoOptions;
  readonly examples: {
    readonly read: number;
    readonly repeated: number;
    readonly skippedVariants: number;
    readonly unmapped: number;
    readonly intentsAvailable: number;
  };
  readonly deliveries: number;
  readonly distinctIntents: number;
  readonly concurrentBursts: number;
  readonly created: number;
  readonly replayed: number;
  readonly awaitingRecovery: number;
  readonly duplicatesPrevented: number;
  readonly inProgressAnswers: number;
  readonly conflictsInjected: number;
  /** Distinct keys answered 422 payload-conflict. */
  readonly conflictsDetected: number;
  /** 422 answers in total (a key's original copies are refused too when the edit came first). */
  readonly conflictAnswers: number;
  readonly unknownReported: number;
  readonly failed: number;
  readonly gaveUp: number;
  readonly refusals: Readonly<Record<string, number>>;
  readonly recovery: RecoveryReport;
  /** Tickets at the destination, counted over `GET /tickets`. */
  readonly ticketsCreated: number;
  readonly destination: TicketSystemStats;
  /** Operations whose final state is not `confirmed` with the ticket found at the destination. */
  readonly unsettled: readonly string[];
  /** An operation that went unknown → resolved, for its history URL. */
  readonly sampleOperationId: string | null;
  readonly sampleHistoryUrl: string | null;
  readonly durationMs: number;
  /** Every violated expectation; empty when the run proves its point. */
  readonly problems: readonly string[];
}

/**
 * One demo run: GitHub example webhooks → intents → shuffled, redelivered, partly concurrent
 * deliveries → workers claiming through the ledger's HTTP API and creating tickets → recovery of
 * unknown outcomes → a check that the destination holds exactly one ticket per distinct intent
 * and that the ledger agrees. Talks to the ledger over HTTP only.
 */
export async function runDemo(
  options: DemoOptions,
  env: { readonly ledger: LedgerEndpoint; readonly ticketSystem: TicketSystem },
): Promise<DemoReport> {
  const startedAt = Date.now();
  const catalogue = loadGithubIntents();
  const intents = catalogue.intents.slice(0, options.limit ?? catalogue.intents.length);
  const plan = planDeliveries(intents, { seed: options.seed, conflicts: options.conflicts });

  const ledger = ledgerClient(env.ledger);
  const tickets = new TicketClient(env.ticketSystem.url);
  const tally = new DemoTally();
  const workerContext = (workerId: string): WorkerContext => ({
    ledger,
    tickets,
    workerId,
    leaseMs: options.leaseMs,
    ticketTimeoutMs: options.ticketTimeoutMs,
    maxInProgressWaitMs: 10_000,
    maxRetryWaitMs: 100,
  });
  const workers = Array.from({ length: options.concurrency }, (_, i) =>
    workerContext(`webhook-worker-${i + 1}`),
  );

  await runPool(plan.batches, options.concurrency, async (batch, workerIndex) => {
    const reports = await Promise.all(
      batch.map((delivery) => processDelivery(delivery, workers[workerIndex]!)),
    );
    for (const report of reports) tally.record(report);
  });

  const recovery = await recoverUnknownOperations(tally.operations, tally, {
    ledger,
    tickets,
    worker: workerContext('recovery-worker'),
    maxRounds: 5,
  });

  // The check: count records at the destination and ask the ledger about every intent.
  const records = await tickets.list();
  const ticketByRef = new Map<string, string[]>();
  for (const t of records) ticketByRef.set(t.externalRef, [...(ticketByRef.get(t.externalRef) ?? []), t.id]);
  const operationByKey = new Map<string, string>();
  for (const [operationId, delivery] of tally.operations)
    operationByKey.set(keyText(delivery.intent.key), operationId);
  const unsettled: string[] = [];
  for (const intent of intents) {
    const operationId = operationByKey.get(keyText(intent.key));
    const refs = ticketByRef.get(intent.ticket.externalRef) ?? [];
    const status = operationId ? await ledger.operations.get(operationId) : null;
    if (
      !operationId ||
      status?.state !== 'confirmed' ||
      refs.length !== 1 ||
      status.destinationRef !== refs[0]
    ) {
      unsettled.push(
        `${intent.ticket.externalRef}: operation ${operationId ?? '(none)'} ${status?.state ?? 'unseen'} ref ${status?.destinationRef ?? '-'}, tickets [${refs.join(', ')}]`,
      );
    }
  }

  const sample =
    recovery.resolutions.find((r) => r.resolution === 'confirmed') ?? recovery.resolutions[0] ?? null;
  const problems: string[] = [];
  if (records.length !== intents.length) {
    problems.push(`tickets created (${records.length}) != distinct intents (${intents.length})`);
  }
  if (unsettled.length > 0) problems.push(`${unsettled.length} intent(s) not confirmed exactly once`);
  if (recovery.resolutions.length < tally.unknownReported) {
    problems.push(
      `${tally.unknownReported} unknown outcome(s) reported, only ${recovery.resolutions.length} resolved`,
    );
  }
  if (recovery.stillUnknown.length > 0)
    problems.push(`${recovery.stillUnknown.length} operation(s) still unknown`);
  if (tally.conflictKeys.size !== plan.injectedConflicts.length) {
    problems.push(
      `conflicts detected (${tally.conflictKeys.size}) != injected (${plan.injectedConflicts.length})`,
    );
  }
  if (tally.unexpectedRefusals > 0) {
    problems.push(`unexpected ledger refusals: ${JSON.stringify(Object.fromEntries(tally.refusals))}`);
  }
  if (tally.gaveUp > 0) problems.push(`${tally.gaveUp} delivery(ies) gave up waiting on in-progress`);

  return {
    options,
    examples: {
      read: catalogue.examples,
      repeated: catalogue.repeatedExamples,
      skippedVariants: catalogue.skippedVariants,
      unmapped: catalogue.unmapped,
      intentsAvailable: catalogue.intents.length,
    },
    deliveries: plan.deliveries,
    distinctIntents: intents.length,
    concurrentBursts: plan.concurrentBursts,
    created: tally.created,
    replayed: tally.replayed,
    awaitingRecovery: tally.awaitingRecovery,
    duplicatesPrevented: tally.duplicatesPrevented,
    inProgressAnswers: tally.inProgressAnswers,
    conflictsInjected: plan.injectedConflicts.length,
    conflictsDetected: tally.conflictKeys.size,
    conflictAnswers: tally.conflictAnswers,
    unknownReported: tally.unknownReported,
    failed: tally.failed,
    gaveUp: tally.gaveUp,
    refusals: Object.fromEntries(tally.refusals),
    recovery,
    ticketsCreated: records.length,
    destination: env.ticketSystem.stats(),
    unsettled,
    sampleOperationId: sample?.operationId ?? null,
    sampleHistoryUrl: sample ? historyUrl(env.ledger, sample.operationId) : null,
    durationMs: Date.now() - startedAt,
    problems,
  };
}
