import { keyText, type Delivery } from './intent.js';
import type { DeliveryReport } from './worker.js';

/**
 * Counts what the workers (and the recovery re-runs) saw, delivery by delivery, and remembers
 * which operation each intent is, so recovery and the final check can ask the ledger about it.
 */
export class DemoTally {
  deliveries = 0;
  created = 0;
  replayed = 0;
  awaitingRecovery = 0;
  conflictAnswers = 0;
  unknownReported = 0;
  failed = 0;
  gaveUp = 0;
  inProgressAnswers = 0;
  /** Creates the ticket system answered from its idempotency store (no new record). */
  destinationReplays = 0;
  /** Refusals other than the expected ones, by `command:code`. */
  readonly refusals = new Map<string, number>();
  /** Keys (client-side text form) that received at least one 422 payload-conflict. */
  readonly conflictKeys = new Set<string>();
  /** operationId → a delivery whose payload the ledger accepted for it (used for re-runs). */
  readonly operations = new Map<string, Delivery>();

  /** Adds one delivery's report. */
  record(report: DeliveryReport): void {
    this.deliveries++;
    this.inProgressAnswers += report.inProgressAnswers;
    const outcome = report.outcome;
    switch (outcome.kind) {
      case 'created':
        this.created++;
        if (outcome.destinationReplayed) this.destinationReplays++;
        break;
      case 'unknown':
        this.unknownReported++;
        break;
      case 'failed':
        this.failed++;
        break;
      case 'replayed':
        this.replayed++;
        break;
      case 'awaiting-recovery':
        this.awaitingRecovery++;
        break;
      case 'conflict':
        this.conflictAnswers++;
        this.conflictKeys.add(keyText(report.delivery.intent.key));
        break;
      case 'gave-up':
        this.gaveUp++;
        break;
      case 'refused': {
        const label = `${outcome.command}:${outcome.code}`;
        this.refusals.set(label, (this.refusals.get(label) ?? 0) + 1);
        break;
      }
    }
    if ('operationId' in outcome && outcome.operationId && !this.operations.has(outcome.operationId)) {
      this.operations.set(outcome.operationId, report.delivery);
    }
  }

  /** Deliveries the ledger kept from repeating an effect: replays plus awaiting-recovery answers. */
  get duplicatesPrevented(): number {
    return this.replayed + this.awaitingRecovery;
  }

  /** Every refusal that is not part of the expected flow. */
  get unexpectedRefusals(): number {
    let n = 0;
    for (const count of this.refusals.values()) n += count;
    return n;
  }
}
