import type { RecordedEvent } from '../../event-store/event-store.port.js';
import {
  AUDIT_STREAM_PREFIX,
  duplicateCount,
  evolve,
  initialState,
  OPERATION_STREAM_PREFIX,
  type LedgerEvent,
  type OperationState,
} from '../../ledger/index.js';

/** One attempt's lease as the review queue shows it. Times ISO 8601 UTC. */
export interface LeaseEntry {
  readonly attempt: number;
  readonly workerId: string | null;
  readonly reason: string | null;
  readonly acquiredAt: string;
  readonly leaseMs: number | null;
  /** Last known expiry (renewals move it). */
  readonly leaseExpiresAt: string | null;
  /** When the attempt ended and how (`confirmed`, `failed`, `released`, `unknown`), else null. */
  readonly endedAt: string | null;
  readonly outcome: string | null;
}

/** What the operations read model keeps per operation (the folded state without the payload). */
export interface OperationFold {
  readonly state: OperationState;
  readonly leases: readonly LeaseEntry[];
  readonly failedAt: string | null;
  /** While Unknown: the worker's `detail` of OutcomeUnknown (null for an expired lease). */
  readonly unknownDetail: string | null;
  readonly duplicateClaims: number;
  readonly payloadConflicts: number;
}

/** Most lease entries kept per operation (the latest ones). */
export const MAX_LEASE_HISTORY = 20;

const AUDIT_TYPES = new Set(['DuplicateClaimPrevented', 'PayloadConflictDetected']);
const ENDINGS: Record<string, string> = {
  OperationConfirmed: 'confirmed',
  OperationFailed: 'failed',
  OperationReleased: 'released',
  OutcomeUnknown: 'unknown',
};

/** True for events of an operation's decision or audit stream (not, e.g., action policies). */
export function isOperationEvent(event: RecordedEvent): boolean {
  const data = event.data as { operationId?: unknown };
  return (
    typeof data.operationId === 'string' &&
    (event.streamName.startsWith(OPERATION_STREAM_PREFIX) || event.streamName.startsWith(AUDIT_STREAM_PREFIX))
  );
}

/** True for the companion audit stream's events (counted, not folded into the state). */
export function isAuditEvent(event: RecordedEvent): boolean {
  return AUDIT_TYPES.has(event.type);
}

/** Restores a stored fold, filling fields that newer domain code added since it was written. */
export function restoreFold(stored: OperationFold): OperationFold {
  return {
    ...stored,
    state: { ...initialState, ...stored.state },
    unknownDetail: stored.unknownDetail ?? null,
  };
}

/**
 * Applies one event with the domain's own `evolve`, so the read model never disagrees with the
 * decider. Null for an audit event of an operation without a fold.
 */
export function foldEvent(fold: OperationFold | null, event: RecordedEvent): OperationFold | null {
  const data = event.data as { at?: string; attempt?: number } & Record<string, unknown>;
  if (isAuditEvent(event)) {
    if (!fold) return null;
    return event.type === 'DuplicateClaimPrevented'
      ? { ...fold, duplicateClaims: fold.duplicateClaims + duplicateCount(event.data as { count?: unknown }) }
      : { ...fold, payloadConflicts: fold.payloadConflicts + 1 };
  }
  const before = fold ?? {
    state: initialState,
    leases: [],
    failedAt: null,
    unknownDetail: null,
    duplicateClaims: 0,
    payloadConflicts: 0,
  };
  const state = {
    ...evolve(before.state, { type: event.type, data: event.data } as unknown as LedgerEvent),
    payload: null,
  };
  const failedAt =
    state.status !== 'failed' ? null : event.type === 'OperationFailed' ? (data.at ?? null) : before.failedAt;
  const unknownDetail =
    state.status !== 'unknown'
      ? null
      : event.type === 'OutcomeUnknown'
        ? typeof data.detail === 'string'
          ? data.detail
          : null
        : before.unknownDetail;
  return { ...before, state, failedAt, unknownDetail, leases: nextLeases(before.leases, event) };
}

function nextLeases(leases: readonly LeaseEntry[], event: RecordedEvent): readonly LeaseEntry[] {
  const d = event.data as Record<string, unknown>;
  const at = typeof d.at === 'string' ? d.at : null;
  if (event.type === 'OperationClaimed') {
    const entry: LeaseEntry = {
      attempt: Number(d.attempt),
      workerId: (d.workerId as string | null) ?? null,
      reason: (d.reason as string | null) ?? null,
      acquiredAt: at ?? '',
      leaseMs: typeof d.leaseMs === 'number' ? d.leaseMs : null,
      leaseExpiresAt: (d.leaseExpiresAt as string | null) ?? null,
      endedAt: null,
      outcome: null,
    };
    return [...leases, entry].slice(-MAX_LEASE_HISTORY);
  }
  const last = leases[leases.length - 1];
  if (!last || last.endedAt !== null || last.attempt !== Number(d.attempt)) return leases;
  if (event.type === 'LeaseRenewed') {
    return [
      ...leases.slice(0, -1),
      { ...last, leaseExpiresAt: (d.leaseExpiresAt as string | null) ?? last.leaseExpiresAt },
    ];
  }
  const outcome = ENDINGS[event.type];
  if (!outcome) return leases;
  return [...leases.slice(0, -1), { ...last, endedAt: at, outcome }];
}
