import type { BenchKey, BenchPayload } from './workload.js';

/** A ledger answer as a route sends it: HTTP status and JSON body. */
export interface LedgerAnswer {
  readonly status: number;
  readonly body: any;
}

/**
 * The three worker calls the benchmark makes straight on the CommandBus (in-process); each answers
 * what the route would.
 */
export interface LedgerDriver {
  /** `POST /v1/claims` `{ key, payload, startStep? }` (the round-trip shortcut when `startStep` is given). */
  claim(key: BenchKey, payload: BenchPayload, startStep?: string): Promise<LedgerAnswer>;
  /** `POST /v1/operations/{operationId}/steps/{step}/start` `{ fencingToken }`. */
  startStep(operationId: string, fencingToken: number, step: string): Promise<LedgerAnswer>;
  /**
   * `POST /v1/operations/{operationId}/confirm` `{ fencingToken, destinationRef, completeStep? }`
   * (`completeStep: { name, outputs }`, the round-trip shortcut, when given).
   */
  confirm(
    operationId: string,
    fencingToken: number,
    destinationRef: string,
    completeStep?: { readonly name: string; readonly outputs: unknown },
  ): Promise<LedgerAnswer>;
}
