import { LedgerRequestError } from '../errors.js';
import { errorFromProblem, toProblem } from '../problem.js';
import type {
  AcquiredClaim,
  ClaimAnswer,
  ClaimRequest,
  Json,
  OperationStatus,
  ReplayedClaim,
  WorkerAnswer,
} from '../types.js';
import { ClaimBatcher, type BatchClaimResult } from '../worker/claim-batcher.js';
import { getOperation } from './operations-api.js';
import { opPath, postJson } from './routes.js';
import type { Transport } from './transport.js';

/** Options of {@link WorkerApi}. */
export interface WorkerApiOptions {
  /**
   * Opportunistic claim batching: claims made while another claim request of this client is in
   * flight leave together as one `POST /v1/claims/batch` once it answers; a claim made while none
   * is in flight leaves at once (see {@link ClaimBatcher}). @defaultValue false
   */
  readonly batchClaims?: boolean;
  /** With `batchClaims`: false when the ledger is known not to take batches (then claims go alone). */
  readonly batchAccepted?: () => boolean | undefined;
}

/** Body of a confirm. `completeStep` is the round-trip shortcut (where the ledger supports it). */
export interface ConfirmRequest {
  readonly destinationRef?: string;
  readonly outputs?: Json;
  readonly completeStep?: { readonly name: string; readonly outputs: Json | null };
}

/**
 * `ledger.worker`: the worker routes, one method per route, no policy — `LedgerClient.runOnce`
 * builds the safe protocol on them. Refusals throw typed errors (`LeaseLostError` for
 * `stale-token`, …).
 */
export class WorkerApi {
  private readonly batcher: ClaimBatcher | null;

  constructor(
    private readonly transport: Transport,
    options: WorkerApiOptions = {},
  ) {
    this.batcher = options.batchClaims
      ? new ClaimBatcher({
          claimOne: (request, signal) => this.claimAlone(request, signal),
          claimBatch: (claims) => this.claimBatch(claims),
          batchAccepted: options.batchAccepted,
        })
      : null;
  }

  /**
   * `POST /v1/claims`: 201 → `acquired`, 200 → `replayed`; refusals throw. With `batchClaims`, a
   * slot of a `POST /v1/claims/batch` when other claims of this client are in flight; the answer
   * and the refusals are the same.
   */
  claim(request: ClaimRequest, signal?: AbortSignal): Promise<ClaimAnswer> {
    return this.batcher ? this.batcher.claim(request, signal) : this.claimAlone(request, signal);
  }

  /** `GET /v1/operations/{id}`: the worker reads its own operation (after an ambiguous answer). */
  status(operationId: string): Promise<OperationStatus> {
    return getOperation(this.transport, operationId);
  }

  private async claimAlone(request: ClaimRequest, signal?: AbortSignal): Promise<ClaimAnswer> {
    const res = await this.transport.request<AcquiredClaim | ReplayedClaim>('POST', '/v1/claims', {
      body: request,
      signal,
    });
    return claimAnswer(res.status, res.body);
  }

  /** `POST /v1/claims/batch` (≤ 500): one result per item, in input order. */
  async claimBatch(claims: readonly ClaimRequest[], signal?: AbortSignal): Promise<BatchClaimResult[]> {
    const res = await this.transport.request<{ results: { index: number; status: number; body: unknown }[] }>(
      'POST',
      '/v1/claims/batch',
      { body: { claims }, signal },
    );
    return res.body.results.map((r) =>
      r.status === 200 || r.status === 201
        ? { index: r.index, ok: true, answer: claimAnswer(r.status, r.body as AcquiredClaim | ReplayedClaim) }
        : {
            index: r.index,
            ok: false,
            error: errorFromProblem(toProblem(r.status, r.body), `POST /v1/claims/batch [${r.index}]`, null),
          },
    );
  }

  /** `POST …/steps/{step}/start`: returns the step's `providerIdempotencyKey`. */
  startStep(
    operationId: string,
    step: string,
    fencingToken: number,
    signal?: AbortSignal,
  ): Promise<WorkerAnswer> {
    return postJson(
      this.transport,
      opPath(operationId, `/steps/${encodeURIComponent(step)}/start`),
      { fencingToken },
      signal,
    );
  }

  /** `POST …/steps/{step}/complete` with the step's outputs. */
  completeStep(
    operationId: string,
    step: string,
    fencingToken: number,
    outputs: Json | null,
  ): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, `/steps/${encodeURIComponent(step)}/complete`), {
      fencingToken,
      outputs,
    });
  }

  /**
   * `POST …/steps/{step}/not-performed`: the step's request provably never left (docs/domain.md
   * "Steps not performed"); a retryable failure is accepted afterwards. `reason` 1–4 096 chars.
   * Refused 409 `stale-token`, `step-not-started`, `outcome-uncertain` (the step completed).
   */
  stepNotPerformed(
    operationId: string,
    step: string,
    fencingToken: number,
    reason: string,
  ): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, `/steps/${encodeURIComponent(step)}/not-performed`), {
      fencingToken,
      reason,
    });
  }

  /** `POST …/confirm`: idempotent with the same body (a repeat answers `alreadyRecorded`). */
  confirm(operationId: string, fencingToken: number, request: ConfirmRequest = {}): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/confirm'), { fencingToken, ...request });
  }

  /** `POST …/fail`: retryable (refused 409 `outcome-uncertain` once a step started) or final. */
  fail(
    operationId: string,
    fencingToken: number,
    error: { code: string; message: string },
    retryable: boolean,
  ): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/fail'), { fencingToken, error, retryable });
  }

  /** `POST …/release`: give the operation back before any step started. */
  release(operationId: string, fencingToken: number, reason?: string): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/release'), { fencingToken, reason });
  }

  /**
   * `POST …/unknown`: the outcome is uncertain. `timedOut`: the call timed out (the ledger labels
   * it `reported_timeout`, else `reported_by_worker`).
   */
  reportUnknown(
    operationId: string,
    fencingToken: number,
    reason: string,
    timedOut = false,
  ): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/unknown'), {
      fencingToken,
      reason,
      ...(timedOut ? { timedOut } : {}),
    });
  }

  /** `POST …/lease/renew`: extend the lease from now by `leaseMs`. */
  renewLease(
    operationId: string,
    fencingToken: number,
    leaseMs: number,
    signal?: AbortSignal,
  ): Promise<WorkerAnswer> {
    return postJson(this.transport, opPath(operationId, '/lease/renew'), { fencingToken, leaseMs }, signal);
  }
}

function claimAnswer(status: number, body: AcquiredClaim | ReplayedClaim): ClaimAnswer {
  if (status === 201) return { kind: 'acquired', ...(body as AcquiredClaim) };
  return { kind: 'replayed', ...(body as ReplayedClaim) };
}

/** True when a 400 names `field` as not accepted (an older ledger without a shortcut). */
export function refusesField(err: unknown, field: string): boolean {
  return err instanceof LedgerRequestError && err.status === 400 && err.fields.includes(field);
}
