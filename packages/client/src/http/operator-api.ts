import type { WorkerAnswer } from '../types.js';
import { opPath, postJson } from './routes.js';
import type { Transport } from './transport.js';

/** A recovery finding (`POST /v1/operations/{id}/evidence`). */
export interface Evidence {
  /** `found` → confirmed; `not_found` → released for retry; `inconclusive` → stays unknown. */
  readonly verdict: 'found' | 'not_found' | 'inconclusive';
  /** Required with `found`: the record at the destination. */
  readonly destinationRef?: string;
  /** The fields the lookup matched on, with the values seen (recorded as evidence). */
  readonly checkedFields: Record<string, unknown>;
  readonly note?: string;
}

/** An operator's resolution of an unknown operation. */
export interface Resolution {
  readonly resolution: 'confirmed' | 'not_found' | 'abandoned';
  /** With `confirmed`: the record found. */
  readonly destinationRef?: string;
  readonly reason: string;
}

/**
 * `ledger.operator`: the operator and recovery routes of one operation. The actor recorded is the API key's holder; `reason` is required
 * and recorded. Refusals are typed errors (e.g. 409 `not-unknown` → LedgerRequestError).
 */
export class OperatorApi {
  constructor(private readonly transport: Transport) {}

  /** `POST …/resolve` (operator): confirmed / not_found / abandoned. */
  resolve(operationId: string, resolution: Resolution): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/resolve'), resolution);
  }

  /** `POST …/evidence` (worker or operator). */
  submitEvidence(operationId: string, evidence: Evidence): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/evidence'), evidence);
  }

  /** `POST …/approve`: the next claim of an approval-gated operation proceeds. */
  approve(operationId: string, reason: string): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/approve'), { reason });
  }

  /** `POST …/reject`: later claims replay the rejection. */
  reject(operationId: string, reason: string): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/reject'), { reason });
  }

  /** `POST …/replay`: a final failure may run again (where the policy allows). */
  replay(operationId: string, reason: string): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/replay'), { reason });
  }

  /** `POST …/duplicate-effects/acknowledge`: after cleaning up; `refs` omitted = all open ones. */
  acknowledgeDuplicateEffect(
    operationId: string,
    reason: string,
    refs?: readonly string[],
  ): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/duplicate-effects/acknowledge'), { reason, refs });
  }
}
