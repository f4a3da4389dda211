import { setTimeout as sleep } from 'node:timers/promises';
import type { Delivery } from './intent.js';
import type { LedgerClient } from './ledger-client.js';
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
  /** How often a `409 in-progress` is retried before the delivery is given up (bounded). */
  readonly maxInProgressRetries: number;
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
  /** Still `in-progress` after the bounded retries. */
  | { readonly kind: 'gave-up' }
  /** Any other refusal, with the command it answered. */
  | {
      readonly kind: 'refused';
      readonly command: 'claim' | 'start' | 'confirm' | 'unknown' | 'fail';
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
 * Handles one webhook delivery the way a production worker would, over the ledger's HTTP API:
 * 1. `POST /v1/claims` with the business key and payload;
 * 2. on 201: start the `create-ticket` step (gets the provider idempotency key), call the ticket
 *    system with that `Idempotency-Key` and a client timeout, then confirm with the ticket id — or,
 *    when no answer came in time, report Unknown (never a retryable failure: the ticket may exist);
 * 3. on 200: a duplicate — the outcome is replayed, nothing is called;
 * 4. on 409 in-progress: wait Retry-After (capped) and claim again, a bounded number of times;
 * 5. on 409 awaiting-recovery / 422 payload-conflict: stop; the answer is the outcome.
 */
export async function processDelivery(delivery: Delivery, ctx: WorkerContext): Promise<DeliveryReport> {
  const report = (outcome: DeliveryOutcome, inProgressAnswers: number): DeliveryReport => ({
    delivery,
    workerId: ctx.workerId,
    outcome,
    inProgressAnswers,
  });
  for (let inProgress = 0; ; inProgress++) {
    const answer = await ctx.ledger.claim({
      key: delivery.intent.key,
      payload: delivery.intent.payload,
      leaseMs: ctx.leaseMs,
      workerId: ctx.workerId,
    });
    switch (answer.kind) {
      case 'acquired':
        return report(
          await performEffect(delivery, answer.operationId, answer.fencingToken, ctx),
          inProgress,
        );
      case 'replayed':
        return report(
          {
            kind: 'replayed',
            operationId: answer.operationId,
            destinationRef: answer.outcome.destinationRef ?? null,
          },
          inProgress,
        );
      case 'in-progress':
        if (inProgress >= ctx.maxInProgressRetries) return report({ kind: 'gave-up' }, inProgress + 1);
        await sleep(Math.max(10, Math.min(answer.retryAfterMs, ctx.maxRetryWaitMs)));
        continue;
      case 'awaiting-recovery':
        return report({ kind: 'awaiting-recovery' }, inProgress);
      case 'payload-conflict':
        return report({ kind: 'conflict' }, inProgress);
      case 'refused':
        return report({ kind: 'refused', command: 'claim', ...pick(answer) }, inProgress);
    }
  }
}

/** The holder's part: step start → ticket call → confirm, unknown or fail. */
async function performEffect(
  delivery: Delivery,
  operationId: string,
  fencingToken: number,
  ctx: WorkerContext,
): Promise<DeliveryOutcome> {
  const started = await ctx.ledger.startStep(operationId, CREATE_TICKET_STEP, fencingToken);
  if (started.kind === 'refused') return { kind: 'refused', command: 'start', operationId, ...pick(started) };

  const result = await ctx.tickets.create(
    delivery.intent.ticket,
    started.providerIdempotencyKey,
    ctx.ticketTimeoutMs,
  );
  if (result.kind === 'created') {
    const confirmed = await ctx.ledger.confirm(operationId, {
      fencingToken,
      destinationRef: result.ticket.id,
      outputs: { ticketId: result.ticket.id },
    });
    if (confirmed.kind === 'refused')
      return { kind: 'refused', command: 'confirm', operationId, ...pick(confirmed) };
    return {
      kind: 'created',
      operationId,
      destinationRef: result.ticket.id,
      destinationReplayed: result.replayed,
    };
  }
  if (result.kind === 'uncertain') {
    const unknown = await ctx.ledger.reportUnknown(operationId, { fencingToken, reason: result.reason });
    if (unknown.kind === 'refused')
      return { kind: 'refused', command: 'unknown', operationId, ...pick(unknown) };
    return { kind: 'unknown', operationId, reason: result.reason };
  }
  const failed = await ctx.ledger.fail(operationId, {
    fencingToken,
    error: { code: `ticket-system-${result.status}`, message: result.reason },
    retryable: false,
  });
  if (failed.kind === 'refused') return { kind: 'refused', command: 'fail', operationId, ...pick(failed) };
  return { kind: 'failed', operationId, reason: result.reason };
}

function pick(refusal: { status: number; code: string; detail: string }) {
  return { status: refusal.status, code: refusal.code, detail: refusal.detail };
}
