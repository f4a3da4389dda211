import type { BenchKey, BenchPayload } from './workload.js';

/** A ledger answer as a route sends it: HTTP status and JSON body. */
export interface LedgerAnswer {
  readonly status: number;
  readonly body: any;
}

/**
 * The three worker calls the benchmark makes, either straight on the CommandBus (in-process) or
 * over HTTP; both answer what the route would.
 */
export interface LedgerDriver {
  /** `POST /v1/claims` `{ key, payload }`. */
  claim(key: BenchKey, payload: BenchPayload): Promise<LedgerAnswer>;
  /** `POST /v1/operations/{operationId}/steps/{step}/start` `{ fencingToken }`. */
  startStep(operationId: string, fencingToken: number, step: string): Promise<LedgerAnswer>;
  /** `POST /v1/operations/{operationId}/confirm` `{ fencingToken, destinationRef }`. */
  confirm(operationId: string, fencingToken: number, destinationRef: string): Promise<LedgerAnswer>;
}
