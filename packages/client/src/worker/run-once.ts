import { randomUUID } from 'node:crypto';
import type { WorkerApi } from '../http/worker-api.js';
import { stepNameIssue, validateKey } from '../key/operation-key.js';
import { InvalidKeyError } from '../errors.js';
import type { AcquiredClaim, ClaimRequest, OperationKey } from '../types.js';
import { claimUntilDecided } from './claim-loop.js';
import { executeJob } from './execute-job.js';
import { DEFAULT_LEASE_MS, type Job, type RunOptions, type RunResult } from './run-options.js';
import type { Shortcuts } from './shortcuts.js';

/**
 * The claim body of a run (key validated locally first), with a fresh random `claimRequestId`
 * (a UUID) that every retry of this claim repeats. @throws InvalidKeyError.
 */
export function claimRequestFor(key: OperationKey, payload: unknown, options: RunOptions): ClaimRequest {
  const valid = validateKey(key);
  if (options.firstStep !== undefined) {
    const issue = stepNameIssue(options.firstStep);
    if (issue) throw new InvalidKeyError([{ field: 'firstStep', message: issue.message }]);
  }
  return {
    key: valid,
    payload,
    leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
    ...(options.workerId !== undefined ? { workerId: options.workerId } : {}),
    ...(options.supersedes !== undefined ? { supersedes: options.supersedes } : {}),
    ...(options.firstStep !== undefined ? { startStep: options.firstStep } : {}),
    claimRequestId: randomUUID(),
  };
}

/**
 * Claims `key` with `payload`; runs `job` only when acquired and records its outcome; a
 * duplicate gets the recorded outcome. See `LedgerClient.runOnce` for the contract.
 */
export function runOnce(
  api: WorkerApi,
  shortcuts: Shortcuts,
  key: OperationKey,
  payload: unknown,
  job: Job,
  options: RunOptions = {},
): Promise<RunResult> {
  return runClaim(api, shortcuts, claimRequestFor(key, payload, options), job, options);
}

/** {@link runOnce} of a claim body already built (and its key validated) by {@link claimRequestFor}. */
export async function runClaim(
  api: WorkerApi,
  shortcuts: Shortcuts,
  request: ClaimRequest,
  job: Job,
  options: RunOptions = {},
): Promise<RunResult> {
  const { answer, sentAt } = await claimUntilDecided(api, shortcuts, request, options);
  if (answer.kind === 'replayed') {
    return {
      status: 'replayed',
      operationId: answer.operationId,
      state: answer.state,
      outcome: answer.outcome,
    };
  }
  return executeJob(
    api,
    shortcuts,
    answer as AcquiredClaim,
    request.key as Required<OperationKey>,
    job,
    options,
    sentAt,
  );
}
