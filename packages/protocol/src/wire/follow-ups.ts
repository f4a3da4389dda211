import type { OperationState } from './operation-state.js';

/**
 * Answer of an accepted fenced worker command: start, complete, confirm, fail, … (docs/api.md
 * "Worker follow-ups").
 */
export interface WorkerAnswer {
  readonly operationId: string;
  readonly state: OperationState;
  /** Step start only. */
  readonly providerIdempotencyKey?: string;
  /** Lease renewal only. */
  readonly leaseExpiresAt?: string;
  /** True when the command repeated one already recorded (nothing new written). */
  readonly alreadyRecorded?: boolean;
  readonly [field: string]: unknown;
}
