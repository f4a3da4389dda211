import { unknownCauseOf, type OperationState } from '../../ledger/index.js';
import type { OperationStatusDto } from './status-answers.dto.js';

/**
 * The status document of GET /v1/operations/{id} (docs/api.md "Reading one operation");
 * `lease.expired` is judged on the server clock `now` (epoch ms).
 */
export function presentStatus(
  operationId: string,
  state: OperationState,
  revision: bigint,
  now: number,
): OperationStatusDto {
  const lease = state.lease;
  return {
    operationId,
    key: state.key,
    state: state.status,
    attempt: state.attempt,
    fencingToken: state.attempt,
    fingerprint: state.fingerprint,
    payload: state.payload,
    retryable: state.status === 'failed' ? state.retryable : undefined,
    lease: lease
      ? {
          workerId: lease.workerId,
          attempt: lease.attempt,
          acquiredAt: new Date(lease.acquiredAt).toISOString(),
          expiresAt: new Date(lease.expiresAt).toISOString(),
          expired: now >= lease.expiresAt,
        }
      : null,
    steps: Object.values(state.steps).map((s) => ({
      step: s.name,
      status: s.status,
      attempt: s.attempt,
      providerIdempotencyKey: s.providerIdempotencyKey,
      startedAt: s.startedAt,
      completedAt: s.completedAt,
      outputs: s.outputs,
    })),
    destinationRef: state.confirmation?.destinationRef ?? null,
    confirmation: state.confirmation,
    duplicateEffects: state.duplicateEffects,
    lastError: state.lastError,
    unknown: state.unknown
      ? { ...state.unknown, cause: unknownCauseOf(state.unknown), detail: state.unknown.detail ?? null }
      : null,
    resolution: state.resolution,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    revision: Number(revision),
  };
}
