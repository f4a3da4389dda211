import { keyText, type Intent } from '../intent.js';
import type { HistoryEvent, LedgerClient } from '@operation-ledger/client';
import type { Ticket } from '../ticket-system.js';

/** What the operations' histories say happened to expired leases and unknown outcomes. */
export interface LedgerStory {
  /** `OperationReleased` by the lease sweeper (lease expired before any step started). */
  sweeperReleases: number;
  /** `OutcomeUnknown(lease_expired)` appended by the lease sweeper (a step had started). */
  sweeperUnknowns: number;
  /** `OutcomeUnknown(lease_expired)` recorded by a claim that found the lease expired first. */
  claimDetectedUnknowns: number;
  /** `OutcomeUnknown` reported by a worker (its ticket call got no answer in time). */
  workerUnknowns: number;
  /** Claims that took over an expired lease themselves (before the sweeper released it). */
  claimsAfterLeaseExpiry: number;
  /** Claims of a released operation (after the sweeper, or a `not_found` verdict). */
  claimsAfterRelease: number;
  evidenceFound: number;
  evidenceNotFound: number;
  /** Confirmations accepted while Unknown (a slow worker's late answer). */
  lateConfirmations: number;
  /** `DuplicateEffectDetected`: must stay 0. */
  duplicateEffects: number;
}

/** The verdict on one intent: confirmed with the ref of its single ticket, or why not. */
export interface IntentCheck {
  readonly intent: Intent;
  readonly operationId: string | null;
  readonly state: string;
  readonly destinationRef: string | null;
  readonly ticketIds: readonly string[];
  readonly settled: boolean;
}

/** An empty {@link LedgerStory}. */
export function emptyStory(): LedgerStory {
  return {
    sweeperReleases: 0,
    sweeperUnknowns: 0,
    claimDetectedUnknowns: 0,
    workerUnknowns: 0,
    claimsAfterLeaseExpiry: 0,
    claimsAfterRelease: 0,
    evidenceFound: 0,
    evidenceNotFound: 0,
    lateConfirmations: 0,
    duplicateEffects: 0,
  };
}

/**
 * Adds one operation's history to `story`. The sweeper's events are recognised by their
 * correlation id (`lease-sweeper-…`, the sweeper's job context) or `releasedBy: 'sweeper'`.
 */
export function tallyHistory(story: LedgerStory, events: readonly HistoryEvent[]): void {
  for (const e of events) {
    const bySweeper = String(e.metadata?.correlationId ?? '').startsWith('lease-sweeper');
    switch (e.type) {
      case 'OperationReleased':
        if (bySweeper || e.data.releasedBy === 'sweeper') story.sweeperReleases++;
        break;
      case 'OutcomeUnknown':
        if (e.data.reason !== 'lease_expired') story.workerUnknowns++;
        else if (bySweeper) story.sweeperUnknowns++;
        else story.claimDetectedUnknowns++;
        break;
      case 'OperationClaimed':
        if (e.data.reason === 'after_lease_expiry') story.claimsAfterLeaseExpiry++;
        if (e.data.reason === 'after_release') story.claimsAfterRelease++;
        break;
      case 'RecoveryEvidenceSubmitted':
        if (e.data.verdict === 'found') story.evidenceFound++;
        if (e.data.verdict === 'not_found') story.evidenceNotFound++;
        break;
      case 'OperationConfirmed':
        if (e.data.source === 'late_confirmation') story.lateConfirmations++;
        break;
      case 'DuplicateEffectDetected':
        story.duplicateEffects++;
        break;
    }
  }
}

/**
 * The final check of a run: for every intent, the ledger's folded status (`GET /v1/operations/{id}`)
 * and the tickets recorded at the destination under its external reference. An intent is settled
 * when its operation is `confirmed` and its destination reference is the id of its only ticket.
 * Also reads every operation's history into a {@link LedgerStory}.
 */
export async function checkIntents(
  intents: readonly Intent[],
  operationIds: ReadonlyMap<string, string>,
  tickets: readonly Ticket[],
  ledger: LedgerClient,
): Promise<{ checks: IntentCheck[]; story: LedgerStory }> {
  const ticketsByRef = new Map<string, string[]>();
  for (const t of tickets)
    ticketsByRef.set(t.externalRef, [...(ticketsByRef.get(t.externalRef) ?? []), t.id]);
  const story = emptyStory();
  const checks: IntentCheck[] = [];
  for (const intent of intents) {
    const operationId = operationIds.get(keyText(intent.key)) ?? null;
    const status = operationId ? await ledger.operations.get(operationId) : null;
    if (operationId) tallyHistory(story, (await ledger.operations.history(operationId)).events);
    const ticketIds = ticketsByRef.get(intent.ticket.externalRef) ?? [];
    const state = status?.state ?? 'unseen';
    const destinationRef = status?.destinationRef ?? null;
    checks.push({
      intent,
      operationId,
      state,
      destinationRef,
      ticketIds,
      settled: state === 'confirmed' && ticketIds.length === 1 && destinationRef === ticketIds[0],
    });
  }
  return { checks, story };
}
