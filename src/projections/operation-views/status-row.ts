import type { OperationRow, OperationState } from '@operation-ledger/protocol';
import { unknownCauseOf } from '../../ledger/index.js';
import type { OperationFold } from './operation-fold.js';

/** One row of the status view, as written (times ISO 8601 UTC; `lastPosition` decimal string). */
export interface StatusRow {
  readonly operation_id: string;
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
  readonly revision: number;
  readonly state: string;
  readonly retryable: boolean | null;
  readonly attempt: number;
  readonly fingerprint: string | null;
  readonly last_error: unknown;
  readonly last_completed_step: string | null;
  readonly destination_ref: string | null;
  readonly duplicate_effects: number;
  readonly duplicate_claims: number;
  readonly payload_conflicts: number;
  readonly lease_worker: string | null;
  readonly lease_expires_at: string | null;
  readonly first_seen: string;
  readonly last_change: string;
  readonly last_position: string;
  readonly fold: OperationFold;
}

/**
 * The status-view row of an operation from its fold. `position` is the global position of the
 * last event applied to it. Returns null for a fold without a key (nothing to show).
 */
export function statusRow(operationId: string, fold: OperationFold, position: bigint): StatusRow | null {
  const s = fold.state;
  if (!s.key) return null;
  const completed = Object.values(s.steps)
    .filter((step) => step.status === 'completed' && step.completedAt)
    .sort((a, b) => (a.completedAt! < b.completedAt! ? -1 : a.completedAt! > b.completedAt! ? 1 : 0));
  const at = s.updatedAt ?? s.createdAt ?? new Date(0).toISOString();
  return {
    operation_id: operationId,
    tenant: s.key.tenant,
    source: s.key.source,
    action: s.key.action,
    subject: s.key.subject,
    revision: s.key.revision,
    state: s.status,
    retryable: s.status === 'failed' ? s.retryable : null,
    attempt: s.attempt,
    fingerprint: s.fingerprint,
    last_error: s.lastError,
    last_completed_step: completed.length ? completed[completed.length - 1]!.name : null,
    destination_ref: s.confirmation?.destinationRef ?? null,
    duplicate_effects: s.duplicateEffects.length,
    duplicate_claims: fold.duplicateClaims,
    payload_conflicts: fold.payloadConflicts,
    lease_worker: s.lease ? s.lease.workerId : null,
    lease_expires_at: s.lease ? new Date(s.lease.expiresAt).toISOString() : null,
    first_seen: s.createdAt ?? at,
    last_change: at,
    last_position: position.toString(),
    fold,
  };
}

/** The status document of a row as the API and the feed show it (no internal fold). */
export function presentStatusRow(row: StatusRow): OperationRow {
  const s = row.fold.state;
  return {
    operationId: row.operation_id,
    key: {
      tenant: row.tenant,
      source: row.source,
      action: row.action,
      subject: row.subject,
      revision: row.revision,
    },
    state: row.state as OperationState,
    retryable: row.retryable,
    attempt: row.attempt,
    fingerprint: row.fingerprint,
    lastError: (row.last_error ?? null) as OperationRow['lastError'],
    lastCompletedStep: row.last_completed_step,
    destinationRef: row.destination_ref,
    duplicateEffects: row.duplicate_effects,
    // of those, the ones no operator acknowledged as cleaned up (the list badges them)
    openDuplicateEffects: s.duplicateEffects.filter((d) => d.acknowledged !== true).length,
    duplicateClaims: row.duplicate_claims,
    payloadConflicts: row.payload_conflicts,
    lease:
      row.lease_worker !== null || row.lease_expires_at !== null
        ? { workerId: row.lease_worker, expiresAt: row.lease_expires_at }
        : null,
    // `detail`: the worker's words of its Unknown report (null for an expired lease); `cause`: its
    // true label, derived for a fold stored before it existed.
    unknown: s.unknown
      ? { ...s.unknown, cause: unknownCauseOf(s.unknown), detail: row.fold.unknownDetail ?? null }
      : null,
    resolution: s.resolution ?? null,
    firstSeen: row.first_seen,
    lastChange: row.last_change,
    position: row.last_position,
  };
}
