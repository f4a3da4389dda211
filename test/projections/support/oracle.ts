import type { EventStore, RecordedEvent } from '../../../src/event-store/event-store.port.js';
import { evolve, initialState, type LedgerEvent, type OperationState } from '../../../src/ledger/index.js';

/** Every event in the store, in global order. */
export async function readEverything(store: EventStore, after = -1n): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll(after, 5000);
    if (page.length === 0) return out;
    out.push(...page);
    after = page[page.length - 1]!.globalPosition;
  }
}

/** What an operation should look like, folded straight from the store with the domain's evolve. */
export interface ExpectedOperation {
  readonly tenant: string;
  readonly state: OperationState;
  duplicateClaims: number;
  payloadConflicts: number;
}

/** Expected status of every operation, by operationId. */
export function expectedOperations(events: readonly RecordedEvent[]): Map<string, ExpectedOperation> {
  const ops = new Map<string, ExpectedOperation>();
  for (const e of events) {
    const d = e.data as { operationId: string; tenant: string };
    const op = ops.get(d.operationId);
    if (e.type === 'DuplicateClaimPrevented') op!.duplicateClaims += countOf(e.data);
    else if (e.type === 'PayloadConflictDetected') op!.payloadConflicts++;
    else {
      const state = evolve(op?.state ?? initialState, {
        type: e.type,
        data: e.data,
      } as unknown as LedgerEvent);
      ops.set(d.operationId, {
        tenant: d.tenant,
        state,
        duplicateClaims: op?.duplicateClaims ?? 0,
        payloadConflicts: op?.payloadConflicts ?? 0,
      });
    }
  }
  return ops;
}

/** Expected duplicate-prevented totals of one tenant, counted from event types (not the projection's code). */
export function expectedTotals(events: readonly RecordedEvent[], tenant: string): Record<string, number> {
  // a coalesced DuplicateClaimPrevented stands for `count` duplicates (docs/domain.md)
  const of = (type: string, pred: (d: Record<string, unknown>) => boolean = () => true) =>
    events
      .filter((e) => e.type === type && e.data.tenant === tenant && pred(e.data))
      .reduce((n, e) => n + countOf(e.data), 0);
  return {
    claims: of('OperationClaimed'),
    duplicateClaimsPrevented: of('DuplicateClaimPrevented'),
    replays: of('DuplicateClaimPrevented', (d) => d.answer === 'replayed'),
    inProgressRefusals: of('DuplicateClaimPrevented', (d) => d.answer === 'in_progress'),
    awaitingRecoveryRefusals: of('DuplicateClaimPrevented', (d) => d.answer === 'awaiting_recovery'),
    payloadConflicts: of('PayloadConflictDetected'),
    unknownOpened: of('OutcomeUnknown'),
    unknownResolved:
      of('OperationResolved') +
      of('OperationConfirmed', (d) => d.source === 'late_confirmation') +
      of('RecoveryEvidenceSubmitted', (d) => d.verdict === 'found' || d.verdict === 'not_found'),
    duplicateEffects: of('DuplicateEffectDetected'),
  };
}

/** Duplicates an audit record stands for: its `count` when it is a positive integer, else 1. */
function countOf(data: Record<string, unknown>): number {
  const count = data.count;
  return typeof count === 'number' && Number.isInteger(count) && count >= 1 ? count : 1;
}
