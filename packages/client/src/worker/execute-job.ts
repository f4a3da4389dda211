import {
  JobFailedError,
  JobTimeoutError,
  LeaseLostError,
  LedgerRequestError,
  LedgerUnavailableError,
  type RecordedOutcome,
} from '../errors.js';
import { refusesField, type WorkerApi } from '../http/worker-api.js';
import type { AcquiredClaim, Json, OperationKey } from '../types.js';
import { LeaseKeeper } from './lease-keeper.js';
import { OperationContext } from './operation-context.js';
import { jobResultProblem } from './job-result.js';
import { REPORT_LIMITS, reportFor, reportable, type JobReport } from './outcome-mapping.js';
import {
  DEFAULT_LEASE_MS,
  type Job,
  type JobResult,
  type RunOptions,
  type RunResult,
} from './run-options.js';
import type { Shortcuts } from './shortcuts.js';

/** Rounds of transport retries a confirm gets before giving up (its answer may have been lost). */
const CONFIRM_ROUNDS = 3;

/**
 * Runs `job` on an acquired claim and records its outcome (the outcome-mapping rule): returned →
 * confirm (with the last step's completion riding along where supported); threw or timed out →
 * {@link reportFor}. The lease is renewed meanwhile; `op.signal` aborts when it is lost —
 * refused, or no renewal succeeded for `leaseMs` since the last one or since `claimSentAt` (local
 * epoch ms, taken before the claim request was sent).
 * @throws JobFailedError when the job threw, or returned something other than a {@link JobResult}
 *   (reported unknown, see `jobResultProblem`); LeaseLostError / DuplicateEffectError when the
 *   ledger refused the confirm (not when the operation is confirmed with this job's reference:
 *   see {@link recordedAnyway}); LedgerUnavailableError when the confirm could not be delivered.
 */
export async function executeJob(
  api: WorkerApi,
  shortcuts: Shortcuts,
  claim: AcquiredClaim,
  key: Required<OperationKey>,
  job: Job,
  options: RunOptions,
  claimSentAt: number = Date.now(),
): Promise<RunResult> {
  const abort = new AbortController();
  // AbortSignal.any only when there is a caller's signal to follow too.
  const signal = options.signal ? AbortSignal.any([abort.signal, options.signal]) : abort.signal;
  const op = new OperationContext(api, shortcuts, claim, key, signal);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const keeper = new LeaseKeeper(
    api,
    claim.operationId,
    claim.fencingToken,
    leaseMs,
    (reason) => abort.abort(reason),
    claimSentAt,
  );
  if (options.renewLease !== false) keeper.start();
  let timer: NodeJS.Timeout | undefined;
  try {
    let result: JobResult | void;
    try {
      const run = Promise.resolve().then(() => job(op));
      run.catch(() => {}); // a job that outlives its timeout must not reject unhandled
      const timeout = options.timeoutMs;
      result = await (timeout === undefined
        ? run
        : Promise.race([
            run,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                const err = new JobTimeoutError(timeout);
                abort.abort(err);
                reject(err);
              }, timeout);
            }),
          ]));
    } catch (error) {
      op.close();
      throw await recordFailure(api, op, error, options);
    }
    op.close();
    const problem = jobResultProblem(result);
    if (problem !== undefined) {
      // The job ran to its end, so its effect may well exist: unknown, for an operator to resolve
      // (a retryable failure would let a re-run make it twice).
      const report: JobReport = {
        kind: 'unknown',
        reason: reportable(problem, REPORT_LIMITS.text),
        timedOut: false,
      };
      throw await recordFailure(api, op, new TypeError(problem), options, report);
    }
    const returned = result ?? {};
    try {
      return await confirm(api, shortcuts, op, returned);
    } catch (err) {
      if (!(err instanceof LeaseLostError)) throw err;
      const recorded = await recordedAnyway(api, op, returned);
      if (recorded) return recorded;
      throw err;
    }
  } finally {
    clearTimeout(timer);
    op.close();
    await keeper.stop();
  }
}

async function confirm(
  api: WorkerApi,
  shortcuts: Shortcuts,
  op: OperationContext,
  result: JobResult,
): Promise<RunResult> {
  const outputs = toJson(result.outputs);
  const body = { destinationRef: result.destinationRef, outputs };
  const pending = await op.takePendingCompletion();
  if (pending && shortcuts.confirmCompleteStep !== false) {
    try {
      await deliverConfirm(api, op, { ...body, completeStep: pending });
      shortcuts.confirmCompleteStep = true;
      return executed(op, result, outputs);
    } catch (err) {
      if (!refusesField(err, 'completeStep')) throw err;
      shortcuts.confirmCompleteStep = false;
    }
  }
  if (pending) await api.completeStep(op.operationId, pending.name, op.fencingToken, pending.outputs);
  await deliverConfirm(api, op, body);
  return executed(op, result, outputs);
}

/** A confirm is idempotent with the same body: a lost answer is retried, a few rounds over. */
async function deliverConfirm(
  api: WorkerApi,
  op: OperationContext,
  body: Parameters<WorkerApi['confirm']>[2],
) {
  for (let round = 1; ; round++) {
    try {
      return await api.confirm(op.operationId, op.fencingToken, body);
    } catch (err) {
      if (!(err instanceof LedgerUnavailableError) || round >= CONFIRM_ROUNDS) throw err;
    }
  }
}

/**
 * After a confirm refused `stale-token` / `not-in-progress` (the lease ran out and a later attempt
 * or recovery moved on): when the operation is confirmed with this job's `destinationRef`, the
 * effect this job reported was recorded — the answer is the recorded outcome instead of the
 * refusal: `executed` when this attempt started a step (this job did the effect; a later attempt
 * or recovery recorded it), else `replayed` (its steps were all completed by earlier attempts).
 * Null when it is not (or cannot be read): the caller throws the refusal.
 */
async function recordedAnyway(
  api: WorkerApi,
  op: OperationContext,
  result: JobResult,
): Promise<RunResult | null> {
  if (result.destinationRef === undefined) return null;
  const status = await api.status(op.operationId).catch(() => null);
  if (status?.state !== 'confirmed' || status.destinationRef !== result.destinationRef) return null;
  const ours = op.startedSteps.length > 0;
  const confirmation = status.confirmation as { outputs?: Json | null } | null | undefined;
  const outputs = confirmation?.outputs ?? null;
  return {
    status: ours ? 'executed' : 'replayed',
    operationId: op.operationId,
    state: 'confirmed',
    attempt: op.attempt,
    outcome: { destinationRef: status.destinationRef, outputs },
  };
}

/** `outputs`: the result's outputs as the confirm sent them (`toJson`, computed once). */
function executed(op: OperationContext, result: JobResult, outputs: Json | undefined): RunResult {
  return {
    status: 'executed',
    operationId: op.operationId,
    state: 'confirmed',
    attempt: op.attempt,
    outcome: { destinationRef: result.destinationRef ?? null, outputs: outputs ?? null },
  };
}

/**
 * Records a failed job per the mapping (or `decided`, a report chosen by the caller) and returns
 * the JobFailedError to throw.
 */
async function recordFailure(
  api: WorkerApi,
  op: OperationContext,
  error: unknown,
  options: RunOptions,
  decided?: JobReport,
): Promise<JobFailedError> {
  let reportError: unknown;
  // A step that finished before the error did complete: record it (a re-run then skips it).
  await op.flush().catch((err: unknown) => (reportError = err));
  const cancelled = options.signal?.aborted === true;
  const report =
    decided ??
    reportFor({
      error,
      startedSteps: op.startedSteps.length,
      unfinishedSteps: op.unfinishedSteps,
      cancelled,
      classifyError: options.classifyError,
    });
  let recorded: RecordedOutcome;
  try {
    recorded = await send(api, op, report);
  } catch (err) {
    recorded = 'not-recorded';
    reportError = err;
  }
  return new JobFailedError({
    operationId: op.operationId,
    attempt: op.attempt,
    recorded,
    startedSteps: op.startedSteps,
    cause: error,
    reportError,
  });
}

async function send(api: WorkerApi, op: OperationContext, report: JobReport): Promise<RecordedOutcome> {
  const { operationId: id, fencingToken: token } = op;
  try {
    if (report.kind === 'unknown') {
      await api.reportUnknown(id, token, report.reason, report.timedOut);
      return 'unknown';
    }
    if (report.kind === 'release') {
      await api.release(id, token, report.reason);
      return 'released';
    }
    if (report.kind === 'not-sent') {
      // Stated first, so the retryable failure is honest. Refused (the step completed, a ledger
      // without the route) → unknown below; a lost lease is thrown like any follow-up's.
      await api.stepNotPerformed(id, report.step, token, report.message);
      await api.fail(id, token, { code: report.code, message: report.message }, true);
      return 'failed-retryable';
    }
    await api.fail(id, token, { code: report.code, message: report.message }, report.retryable);
    return report.retryable ? 'failed-retryable' : 'failed-final';
  } catch (err) {
    // The ledger saw a started step this process did not (e.g. a start whose answer was lost).
    const fenced = err instanceof LedgerRequestError && ['stale-token', 'not-in-progress'].includes(err.code);
    if (
      err instanceof LedgerRequestError &&
      (err.code === 'outcome-uncertain' || (report.kind === 'not-sent' && !fenced))
    ) {
      await api.reportUnknown(
        id,
        token,
        report.kind === 'release' ? report.reason : 'message' in report ? report.message : '',
      );
      return 'unknown';
    }
    throw err;
  }
}

/** A value as the JSON the ledger records (`undefined` stays absent). */
function toJson(value: unknown): Json | undefined {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as Json);
}
