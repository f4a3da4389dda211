import { LedgerRequestError, type LedgerClient } from '@operation-ledger/client';
import type { DemoTally } from './demo-tally.js';
import type { Delivery } from './intent.js';
import type { TicketClient } from './ticket-client.js';
import { processDelivery, type WorkerContext } from './worker.js';

/** Actor recorded on every resolution the recovery makes (the demo key's name). */
export const RECOVERY_ACTOR = 'recovery-bot';

/** What recovery needs: both systems, a worker context for re-runs, and its bounds. */
export interface RecoveryContext {
  readonly ledger: LedgerClient;
  readonly tickets: TicketClient;
  /** Used to re-run the claim of an operation resolved `not_found`. */
  readonly worker: WorkerContext;
  /** Passes over the operations; a re-run that ends Unknown again is handled by the next pass. */
  readonly maxRounds: number;
}

/** One resolution recovery recorded. */
export interface RecoveryResolution {
  readonly operationId: string;
  readonly resolution: 'confirmed' | 'not_found';
  readonly destinationRef: string | null;
  readonly round: number;
}

/** What recovery found and did. */
export interface RecoveryReport {
  readonly rounds: number;
  readonly resolutions: readonly RecoveryResolution[];
  /** Operations found at the destination more than once (should never happen). */
  readonly ambiguous: readonly string[];
  /** Operations that were no longer Unknown when resolved (e.g. a late confirmation won). */
  readonly alreadyResolved: number;
  /** Operations still Unknown after the last round. */
  readonly stillUnknown: readonly string[];
}

/**
 * The recovery step for operations whose outcome is unknown ("inspect, don't retry"). For every
 * operation the run touched, asks the ledger for its state; for each one in `unknown`:
 * - looks the ticket up at the destination by its external reference;
 * - found → resolve `confirmed` with the ticket id;
 * - not found → resolve `not_found` (the operation is released) and run the delivery again — the
 *   same provider idempotency key goes to the ticket system.
 * Repeats up to `maxRounds` passes, since a re-run can itself end Unknown.
 */
export async function recoverUnknownOperations(
  operations: ReadonlyMap<string, Delivery>,
  tally: DemoTally,
  ctx: RecoveryContext,
): Promise<RecoveryReport> {
  const resolutions: RecoveryResolution[] = [];
  const ambiguous: string[] = [];
  let alreadyResolved = 0;
  let rounds = 0;
  let unknown = await unknownOperations(operations, ctx.ledger);
  while (unknown.length > 0 && rounds < ctx.maxRounds) {
    rounds++;
    for (const operationId of unknown) {
      const delivery = operations.get(operationId)!;
      const { externalRef } = delivery.intent.ticket;
      const found = await ctx.tickets.findByExternalRef(externalRef);
      if (found.length > 1) ambiguous.push(operationId);
      const ticket = found[0];
      try {
        await ctx.ledger.operator.resolve(
          operationId,
          ticket
            ? {
                resolution: 'confirmed',
                destinationRef: ticket.id,
                reason: `ticket ${ticket.id} found at the ticket system by externalRef ${externalRef}`,
              }
            : {
                resolution: 'not_found',
                reason: `no ticket with externalRef ${externalRef} at the ticket system`,
              },
        );
      } catch (err) {
        if (!(err instanceof LedgerRequestError) || err.code !== 'not-unknown') throw err;
        alreadyResolved++;
        continue;
      }
      resolutions.push({
        operationId,
        resolution: ticket ? 'confirmed' : 'not_found',
        destinationRef: ticket?.id ?? null,
        round: rounds,
      });
      if (!ticket) tally.record(await processDelivery(delivery, ctx.worker));
    }
    unknown = await unknownOperations(operations, ctx.ledger);
  }
  return { rounds, resolutions, ambiguous, alreadyResolved, stillUnknown: unknown };
}

/** The operations, among those given, that the ledger holds in state `unknown`. */
async function unknownOperations(
  operations: ReadonlyMap<string, Delivery>,
  ledger: LedgerClient,
): Promise<string[]> {
  const out: string[] = [];
  for (const operationId of operations.keys()) {
    if ((await ledger.operations.get(operationId)).state === 'unknown') out.push(operationId);
  }
  return out;
}
