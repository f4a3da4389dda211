import {
  AwaitingRecoveryError,
  FinalError,
  InProgressError,
  JobFailedError,
  LedgerRequestError,
  PayloadConflictError,
  type LedgerClient,
} from '@operation-ledger/client';
import type { Delivery } from './intent.js';
import type { TicketClient } from './ticket-client.js';

/** The step name recorded before the ticket system is called. */
export const CREATE_TICKET_STEP = 'create-ticket';

/** What a worker needs: both systems, its identity and its time budget. */
export interface WorkerContext {
  readonly ledger: LedgerClient;
  readonly tickets: TicketClient;
  readonly workerId: string;
  /** Lease asked for with each claim, ms (the ledger accepts 1 000 .. 3 600 000). */
  readonly leaseMs: number;
  /** Client timeout of the ticket system call, ms; shorter than the lease. */
  readonly ticketTimeoutMs: number;
  /** How long a delivery waits while another worker holds its operation, ms. */
  readonly maxInProgressWaitMs: number;
  /** Upper bound of one wait after `409 in-progress`, ms (Retry-After is in whole seconds). */
  readonly maxRetryWaitMs: number;
}

/** How one delivery ended. `operationId` is present whenever the ledger told it. */
export type DeliveryOutcome =
  /** This delivery acquired the claim, created the ticket and confirmed it. */
  | {
      readonly kind: 'created';
      readonly operationId: string;
      readonly destinationRef: string;
      readonly destinationReplayed: boolean;
    }
  /** Acquired, called the ticket system, got no answer in time: reported Unknown. */
  | { readonly kind: 'unknown'; readonly operationId: string; readonly reason: string }
  /** Acquired, the ticket system refused the request: reported as a final failure. */
  | { readonly kind: 'failed'; readonly operationId: string; readonly reason: string }
  /** A duplicate: the ledger replayed the recorded outcome, no ticket call. */
  | { readonly kind: 'replayed'; readonly operationId: string; readonly destinationRef: string | null }
  /** A duplicate of an operation whose outcome is unknown: no ticket call, recovery will decide. */
  | { readonly kind: 'awaiting-recovery' }
  /** Same key, different payload: refused, no ticket call. */
  | { readonly kind: 'conflict' }
  /** Still `in-progress` after the bounded wait. */
  | { readonly kind: 'gave-up' }
  /** Any other refusal, with the command it answered. */
  | {
      readonly kind: 'refused';
      readonly command: string;
      readonly operationId?: string;
      readonly status: number;
      readonly code: string;
      readonly detail: string;
    };

/** One delivery's outcome plus how many `in-progress` answers it waited through. */
export interface DeliveryReport {
  readonly delivery: Delivery;
  readonly workerId: string;
  readonly outcome: DeliveryOutcome;
  readonly inProgressAnswers: number;
}

/**
 * Handles one webhook delivery: the worker SDK's `runOnce` claims the intent's key and, only when
 * acquired, runs the business logic — create the ticket with the step's provider idempotency
 * key. The SDK records the outcome: a created ticket is confirmed, a refused request (4xx) a
 * final failure, no answer in time **unknown** (the ticket may exist); duplicates are answered
 * from the record, and a delivery waits while another worker holds the intent.
 */
export async function processDelivery(delivery: Delivery, ctx: WorkerContext): Promise<DeliveryReport> {
  let inProgressAnswers = 0;
  const report = (outcome: DeliveryOutcome): DeliveryReport => ({
    delivery,
    workerId: ctx.workerId,
    outcome,
    inProgressAnswers,
  });
  let destinationReplayed = false;
  try {
    const run = await ctx.ledger.runOnce(
      delivery.intent.key,
      delivery.intent.payload,
      async (op) => {
        const ticketId = await op.step(CREATE_TICKET_STEP, async (providerKey) => {
          const result = await ctx.tickets.create(delivery.intent.ticket, providerKey, ctx.ticketTimeoutMs);
          if (result.kind === 'uncertain') throw new Error(result.reason);
          if (result.kind === 'rejected') {
            throw new FinalError(result.reason, { code: `ticket-system-${result.status}` });
          }
          destinationReplayed = result.replayed;
          return result.ticket.id;
        });
        return { destinationRef: ticketId, outputs: { ticketId } };
      },
      {
        leaseMs: ctx.leaseMs,
        workerId: ctx.workerId,
        waitIfInProgress: {
          timeoutMs: ctx.maxInProgressWaitMs,
          pollMs: ctx.maxRetryWaitMs,
          onWait: () => inProgressAnswers++,
        },
      },
    );
    const { operationId, outcome } = run;
    if (run.status === 'replayed') {
      return report({ kind: 'replayed', operationId, destinationRef: outcome.destinationRef });
    }
    return report({
      kind: 'created',
      operationId,
      destinationRef: outcome.destinationRef!,
      destinationReplayed,
    });
  } catch (err) {
    return report(outcomeOfError(err));
  }
}

/** What a refusal or a failed job means for the delivery. */
function outcomeOfError(err: unknown): DeliveryOutcome {
  if (err instanceof AwaitingRecoveryError) return { kind: 'awaiting-recovery' };
  if (err instanceof PayloadConflictError) return { kind: 'conflict' };
  if (err instanceof InProgressError) return { kind: 'gave-up' };
  if (err instanceof JobFailedError) {
    const reason = err.cause instanceof Error ? err.cause.message : String(err.cause);
    if (err.recorded === 'unknown') return { kind: 'unknown', operationId: err.operationId, reason };
    if (err.recorded === 'failed-final') return { kind: 'failed', operationId: err.operationId, reason };
    const refusal = err.reportError instanceof LedgerRequestError ? err.reportError : null;
    return {
      kind: 'refused',
      command: `report-${err.recorded}`,
      operationId: err.operationId,
      status: refusal?.status ?? 0,
      code: refusal?.code ?? 'not-recorded',
      detail: reason,
    };
  }
  if (err instanceof LedgerRequestError) {
    const command = err.request.split('/').pop() ?? 'claim';
    return { kind: 'refused', command, status: err.status, code: err.code, detail: err.problem.detail };
  }
  throw err;
}
