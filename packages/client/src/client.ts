import { Capabilities, type LedgerFeature } from './http/capabilities.js';
import { OperationsApi } from './http/operations-api.js';
import { OperatorApi } from './http/operator-api.js';
import { PoliciesApi } from './http/policies-api.js';
import { ProjectionsApi } from './http/projections-api.js';
import { ReconciliationApi } from './http/reconciliation-api.js';
import { ReportsApi } from './http/reports-api.js';
import { Transport, type TransportOptions } from './http/transport.js';
import { WorkerApi } from './http/worker-api.js';
import { operationIdOf } from './key/operation-key.js';
import { recover, type RecoverOptions, type RecoveryReport } from './recovery/recover.js';
import type { OperationKey } from './types.js';
import type { OperationContext } from './worker/operation-context.js';
import { runMany, type ItemReport, type RunManyOptions } from './worker/run-many.js';
import { claimRequestFor, runClaim } from './worker/run-once.js';
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
   * is in flight leaves at once (see `ClaimBatcher`). @defaultValue false
   */
  readonly batchClaims?: boolean;
  /**
   * How long a run waits, in ms, for the ledger's first `/health` answer (its capabilities)
   * before it goes on without them, learning the shortcuts from 400 answers as with a ledger
   * that lists none; the ask goes on and later runs use its answer. A run waits for one ask at
   * most once: while it still hangs, the next runs do not wait. @defaultValue 2000
   */
  readonly capabilitiesWaitMs?: number;
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
 * The ledger client. On top, the worker SDK — `runOnce`, `makeRunOnce`, `runMany`, `recover` —
 * and `supports`; every route of the ledger is a method of one of its sub-clients, which share
 * one {@link Transport} (packages/client/README.md "Sub-clients"):
 * `operations` (status, history, the status view), `reports` (review queue, conflicts, metrics,
 * outcome report, feeds), `operator` (resolve, evidence, approve…), `policies`, `projections`,
 * `reconciliation` (destination exports) and `worker` (the raw worker routes `runOnce` uses).
 * No state but the ledger's capabilities and the learnt shortcut support; safe to share across
 * jobs.
 */
export class LedgerClient {
  /** The HTTP layer (auth, timeouts, retries, typed errors), for routes without a method yet. */
  readonly transport: Transport;
  /** `GET /v1/operations/{id}` (+ `/history`) and the tenant's status view. */
  readonly operations: OperationsApi;
  /** The tenant read models: review queue, conflicts, metrics, the outcome report, their feeds. */
  readonly reports: ReportsApi;
  /** Operator and recovery actions on one operation: resolve, evidence, approve, reject… */
  readonly operator: OperatorApi;
  /** A tenant's per-action policies: read, history, set. */
  readonly policies: PoliciesApi;
  /** The projectors: status, online rebuild. */
  readonly projections: ProjectionsApi;
  /** Destination reconciliation: upload an export, follow the run, read its items. */
  readonly reconciliation: ReconciliationApi;
  /** The worker routes, one method per route (claim, steps, confirm, fail…), no policy. */
  readonly worker: WorkerApi;
  private readonly capabilities: Capabilities;
  private readonly shortcuts: Shortcuts;

  constructor(options: LedgerClientOptions) {
    this.transport = new Transport(options);
    this.operations = new OperationsApi(this.transport);
    this.reports = new ReportsApi(this.transport);
    this.operator = new OperatorApi(this.transport);
    this.policies = new PoliciesApi(this.transport);
    this.projections = new ProjectionsApi(this.transport);
    this.reconciliation = new ReconciliationApi(this.transport);
    this.capabilities = new Capabilities(this.transport, options.capabilitiesWaitMs);
    this.worker = new WorkerApi(this.transport, {
      batchClaims: options.batchClaims,
      batchAccepted: () => this.capabilities.listedNow('claims-batch'),
    });
    this.shortcuts = new Shortcuts(options.shortcuts !== false);
  }

  /**
   * True when the ledger lists `feature` in its `/health` answer's `capabilities` (asked once per
   * client, on first use; docs/api.md "Health, metrics and OpenAPI"). False for every feature from a ledger that
   * predates the list, and while the ledger cannot be reached.
   */
  supports(feature: LedgerFeature): Promise<boolean> {
    return this.capabilities.supports(feature);
  }

  /**
   * Runs `job` at most once per business key: claims `key` with `payload`; when acquired runs
   * `job(op)` with the lease renewed and records the outcome — returned → confirm; threw before
   * any step → failure (retryable unless final) or release on cancel; threw or timed out after a
   * step started → unknown. A duplicate gets the recorded outcome (`status: 'replayed'`). The
   * client's first run asks the ledger's capabilities once (see {@link supports}).
   * @throws InvalidKeyError (locally, the ledger's messages), InProgressError (no or expired
   *   `waitIfInProgress`), PayloadConflictError, AwaitingRecoveryError, AwaitingApprovalError,
   *   SupersededError, RetentionExpiredError, JobFailedError (the job threw; `recorded` says
   *   what the ledger now holds), LeaseLostError (confirm refused), LedgerUnavailableError.
   */
  async runOnce(key: OperationKey, payload: unknown, job: Job, options: RunOptions = {}): Promise<RunResult> {
    const request = claimRequestFor(key, payload, options); // a bad key is refused before any request
    return runClaim(this.worker, await this.learntShortcuts(options.signal), request, job, options);
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
  async runMany<T>(
    items: readonly T[],
    job: (op: OperationContext, item: T) => Promise<JobResult | void> | JobResult | void,
    options: RunManyOptions<T>,
  ): Promise<ItemReport<T>[]> {
    return runMany(this.worker, await this.learntShortcuts(options.signal), items, job, options);
  }

  /** Settles unknown outcomes with evidence from the destination; see {@link recover}. */
  recover(options: RecoverOptions): Promise<RecoveryReport> {
    return recover(this, options);
  }

  /** The operationId of `key`, computed locally (UUID v5; identical to the ledger's). */
  operationIdOf(key: OperationKey): string {
    return operationIdOf(key);
  }

  /**
   * The shortcut support, updated from the ledger's capabilities once they are known
   * ({@link Capabilities.forRun}: a bounded wait, which the run's `signal` ends sooner).
   * @throws the signal's reason when it aborts first.
   */
  private async learntShortcuts(signal: AbortSignal | undefined): Promise<Shortcuts> {
    signal?.throwIfAborted();
    this.shortcuts.learn(await this.capabilities.forRun(signal));
    return this.shortcuts;
  }
}
