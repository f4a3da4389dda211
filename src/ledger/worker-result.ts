import { refuse } from './decision.js';
import type { OperationState } from './operation-state.js';

/** Answer of an accepted worker command. */
export interface WorkerResult {
  readonly state: OperationState['status'];
  /** StartStep only: the provider idempotency key for the step. */
  readonly providerIdempotencyKey?: string;
  /** RenewLease only: the new expiry (ISO 8601). */
  readonly leaseExpiresAt?: string;
  /** True when the command repeated one already recorded and nothing new was written. */
  readonly alreadyRecorded: boolean;
}

/** Refusal for a command on an operation that does not exist. */
export const notFound = { code: 'not-found', message: 'no operation with this id' } as const;

/** Refused `stale-token`: `token` is not the current attempt. */
export function stale(state: OperationState, token: number) {
  return refuse<WorkerResult>({
    code: 'stale-token',
    message: `fencing token ${token} is not the current attempt (${state.attempt})`,
    state: state.status,
  });
}

/** Refused `not-in-progress`: the holder's command came after the attempt ended. */
export function notInProgress(state: OperationState) {
  return refuse<WorkerResult>({
    code: 'not-in-progress',
    message: `the operation is ${state.status}, not in progress`,
    state: state.status,
  });
}

/** An accepted worker command's answer; `extra` adds the command's own fields. */
export const ok = (state: OperationState['status'], alreadyRecorded: boolean, extra = {}): WorkerResult => ({
  state,
  alreadyRecorded,
  ...extra,
});
