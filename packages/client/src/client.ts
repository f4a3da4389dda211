import type { TransportOptions } from './http/transport.js';
import { LedgerApi } from './http/worker-api.js';
import { operationIdOf } from './key/operation-key.js';
import { subscribe, type Feed, type FeedEvent, type FeedFilter, type SubscribeOptions } from './read/sse.js';
import { recover, type RecoverOptions, type RecoveryReport } from './recovery/recover.js';
import type { ClaimAnswer, ClaimRequest, OperationKey, OperationStatus } from './types.js';
import { ClaimBatcher } from './worker/claim-batcher.js';
import type { OperationContext } from './worker/operation-context.js';
import { runMany, type ItemReport, type RunManyOptions } from './worker/run-many.js';
import { runOnce } from './worker/run-once.js';
import type { Job, JobResult, RunOptions, RunResult } from './worker/run-options.js';
import { Shortcuts } from './worker/shortcuts.js';

/** Options of {@link LedgerClient}. */
export interface LedgerClientOptions extends TransportOptions {
  /**
   * Use the round-trip shortcuts (claim + first step start; last step completion + confirm)
   * when the ledger accepts them; `false` never tries. @defaultValue true
   */
  readonly shortcuts?: boolean;
  /**
   * Opportunistic claim batching: claims made while another claim request of this client is in
   * flight leave together as one `POST /v1/claims/batch` once it answers; a claim made while none
   * is in flight leaves at once (see {@link ClaimBatcher}). @defaultValue false
   */
  readonly batchClaims?: boolean;
}

/** Options of {@link LedgerClient.makeRunOnce}. */
export interface MakeRunOnceOptions<A extends unknown[], R> extends RunOptions {
  readonly key: (...args: A) => OperationKey;
  readonly payload: (...args: A) => unknown;
  /** The step the function runs as. @defaultValue 'call' */
  readonly step?: string;
  /** The destination's reference in the function's result (recorded by the confirm). */
  readonly destinationRef?: (result: R) => string | undefined;
}

/**
 * The ledger client: the worker SDK (`runOnce`, `runMany`, `makeRunOnce`, `recover`), the read
 * side (`get`, `history`, `subscribe`) and one thin typed method per HTTP route (inherited from
 * {@link LedgerApi}). No state but the learnt shortcut support; safe to share across jobs.
 */
export class LedgerClient extends LedgerApi {
  private readonly shortcuts: Shortcuts;
  private readonly batcher: ClaimBatcher | null;

  constructor(options: LedgerClientOptions) {
    super(options);
    this.shortcuts = new Shortcuts(options.shortcuts !== false);
    this.batcher = options.batchClaims
      ? new ClaimBatcher({
          claimOne: (request, signal) => super.claim(request, signal),
          claimBatch: (claims) => this.claimBatch(claims),
        })
      : null;
  }

  /**
   * `POST /v1/claims` — or, with `batchClaims`, a slot of a `POST /v1/claims/batch` when other
   * claims of this client are in flight; the answer and the refusals are the same.
   */
  override claim(request: ClaimRequest, signal?: AbortSignal): Promise<ClaimAnswer> {
    return this.batcher ? this.batcher.claim(request, signal) : super.claim(request, signal);
  }

  /**
   * Runs `job` at most once per business key: claims `key` with `payload`; when acquired runs
   * `job(op)` with the lease renewed and records the outcome — returned → confirm; threw before
   * any step → failure (retryable unless final) or release on cancel; threw or timed out after a
   * step started → unknown. A duplicate gets the recorded outcome (`status: 'replayed'`).
   * @throws InvalidKeyError (locally, the ledger's messages), InProgressError (no or expired
   *   `waitIfInProgress`), PayloadConflictError, AwaitingRecoveryError, AwaitingApprovalError,
   *   SupersededError, RetentionExpiredError, JobFailedError (the job threw; `recorded` says
   *   what the ledger now holds), LeaseLostError (confirm refused), LedgerUnavailableError.
   */
  runOnce(key: OperationKey, payload: unknown, job: Job, options: RunOptions = {}): Promise<RunResult> {
    return runOnce(this, this.shortcuts, key, payload, job, options);
  }

  /**
   * Wraps an existing function so each call runs at most once per key (AWS Powertools'
   * `makeIdempotent` style). The function is the job's one step (`options.step`, default
   * `call`): its JSON result is recorded and returned — a duplicate call returns the recorded
   * result without calling it; a throw once it started is recorded unknown, never retried blindly.
   */
  makeRunOnce<A extends unknown[], R>(
    fn: (...args: A) => Promise<R> | R,
    options: MakeRunOnceOptions<A, R>,
  ): (...args: A) => Promise<R> {
    const { key, payload, destinationRef, step = 'call', ...run } = options;
    return async (...args: A) => {
      const result = await this.runOnce(
        key(...args),
        payload(...args),
        async (op): Promise<JobResult> => {
          const r = await op.step(step, () => fn(...args));
          return { outputs: r ?? null, destinationRef: destinationRef?.(r) };
        },
        run,
      );
      return result.outcome.outputs as R;
    };
  }

  /** Backfills through `/v1/claims/batch`; see {@link runMany}. */
  runMany<T>(
    items: readonly T[],
    job: (op: OperationContext, item: T) => Promise<JobResult | void> | JobResult | void,
    options: RunManyOptions<T>,
  ): Promise<ItemReport<T>[]> {
    return runMany(this, this.shortcuts, items, job, options);
  }

  /** Settles unknown outcomes with evidence from the destination; see {@link recover}. */
  recover(options: RecoverOptions): Promise<RecoveryReport> {
    return recover(this, options);
  }

  /** `GET /v1/operations/{id}`: the status folded from the stream. */
  get(operationId: string): Promise<OperationStatus> {
    return this.getOperation(operationId);
  }

  /** An async iterator over a tenant feed (SSE) with automatic resume; see {@link subscribe}. */
  subscribe(feed: Feed, filter: FeedFilter, options: SubscribeOptions = {}): AsyncGenerator<FeedEvent> {
    return subscribe(this.transport, feed, filter, options);
  }

  /** The operationId of `key`, computed locally (UUID v5; identical to the ledger's). */
  operationIdOf(key: OperationKey): string {
    return operationIdOf(key);
  }
}
