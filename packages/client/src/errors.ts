/**
 * Typed errors of the SDK. Every refusal the ledger answers (RFC 9457 problem+json) becomes a
 * {@link LedgerRequestError} or one of its subclasses, chosen by the problem `code`; see
 * `errorFromProblem` in `problem.ts`.
 */

import type { Problem } from '@operation-ledger/protocol';

/** A problem+json document (RFC 9457) as the ledger sends it. */
export type { Problem } from '@operation-ledger/protocol';

/** The ledger refused a request: status, problem code and every problem+json member. */
export class LedgerRequestError extends Error {
  override name = 'LedgerRequestError';
  /** HTTP status, e.g. 409. */
  readonly status: number;
  /** Problem code, e.g. `stale-token`. */
  readonly code: string;
  readonly problem: Problem;
  /** `METHOD path` of the refused request. */
  readonly request: string;

  constructor(problem: Problem, request: string) {
    super(`${request}: ${problem.status} ${problem.code}${problem.detail ? ` — ${problem.detail}` : ''}`);
    this.status = problem.status;
    this.code = problem.code;
    this.problem = problem;
    this.request = request;
  }

  /** `errors[].field` of a 400, e.g. `['key.subject']`. */
  get fields(): string[] {
    return (this.problem.errors ?? []).map((e) => e.field);
  }
}

/** 409 `in-progress`: another worker holds the operation's lease. */
export class InProgressError extends LedgerRequestError {
  override name = 'InProgressError';
  /** ms until the holder's lease expires (the problem's `retryAfterMs`, else `Retry-After`). */
  readonly retryAfterMs: number;
  readonly operationId: string | null;
  constructor(problem: Problem, request: string, retryAfterMs: number) {
    super(problem, request);
    this.retryAfterMs = retryAfterMs;
    this.operationId = typeof problem.operationId === 'string' ? problem.operationId : null;
  }
}

/** 422 `payload-conflict`: the key was claimed with a different payload. Both fingerprints. */
export class PayloadConflictError extends LedgerRequestError {
  override name = 'PayloadConflictError';
  readonly existingFingerprint: string | null;
  readonly incomingFingerprint: string | null;
  constructor(problem: Problem, request: string) {
    super(problem, request);
    this.existingFingerprint = stringOrNull(problem.existingFingerprint);
    this.incomingFingerprint = stringOrNull(problem.incomingFingerprint);
  }
}

/** 409 `awaiting-recovery`: the outcome is unknown; recovery (evidence or an operator) decides. */
export class AwaitingRecoveryError extends LedgerRequestError {
  override name = 'AwaitingRecoveryError';
}

/** 409 `awaiting-approval`: the action's policy requires an operator's approval first. */
export class AwaitingApprovalError extends LedgerRequestError {
  override name = 'AwaitingApprovalError';
}

/** 409 `superseded`: a newer revision of the subject exists (amendments). */
export class SupersededError extends LedgerRequestError {
  override name = 'SupersededError';
  /** The newer revision, when the ledger names it. */
  readonly supersededBy: number | null;
  constructor(problem: Problem, request: string) {
    super(problem, request);
    this.supersededBy = typeof problem.supersededBy === 'number' ? problem.supersededBy : null;
  }
}

/** 410 `retention-expired`: the operation's record was compacted and the policy refuses repeats. */
export class RetentionExpiredError extends LedgerRequestError {
  override name = 'RetentionExpiredError';
}

/**
 * 409 `stale-token` / `not-in-progress` on a fenced command: this worker no longer holds the
 * operation (its lease expired and someone else moved on). Nothing it sends is recorded.
 */
export class LeaseLostError extends LedgerRequestError {
  override name = 'LeaseLostError';
}

/** 409 `duplicate-effect`: the operation was confirmed with another destination reference. */
export class DuplicateEffectError extends LedgerRequestError {
  override name = 'DuplicateEffectError';
}

/**
 * The ledger could not be reached or answered 503 (`store-unavailable`, `contention`) after the
 * bounded retries (`retry` option). Nothing was recorded by the failed request, or its retry
 * with the same body is safe.
 */
export class LedgerUnavailableError extends Error {
  override name = 'LedgerUnavailableError';
  /** The last answer's status (503), or null for a network error or timeout. */
  readonly status: number | null;
  /** Requests sent, the first included. */
  readonly attempts: number;
  readonly request: string;
  /**
   * @param request `METHOD /path`; @param attempts requests sent; @param status the last answer's
   * status, null for a network error; @param cause the last error; @param at the ledger's base
   * URL the requests went to, named in the message.
   */
  constructor(request: string, attempts: number, status: number | null, cause: unknown, at?: string) {
    const where = at ? ` at ${at}` : '';
    super(
      `${request}: ledger${where} unavailable after ${attempts} attempt(s) (${describe(status, cause)})`,
      {
        cause,
      },
    );
    this.request = request;
    this.attempts = attempts;
    this.status = status;
  }
}

/**
 * Throw it from a job (or from inside `op.step`) to report a final failure: the ledger records
 * `failed` with `retryable: false` and replays it to later claims. `code` goes to the ledger.
 */
export class FinalError extends Error {
  override name = 'FinalError';
  readonly code: string;
  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.code = options.code ?? 'final';
  }
}

/** What the SDK recorded in the ledger when a job threw (see the outcome-mapping table). */
export type RecordedOutcome = 'failed-retryable' | 'failed-final' | 'unknown' | 'released' | 'not-recorded';

/**
 * `runOnce`'s job threw (or timed out). `recorded` says what the SDK told the ledger; `cause` is
 * the job's own error. `not-recorded`: the ledger refused or could not be reached (the lease then
 * expires and the ledger's sweeper decides: released, or unknown once a step had started).
 */
export class JobFailedError extends Error {
  override name = 'JobFailedError';
  readonly operationId: string;
  readonly attempt: number;
  readonly recorded: RecordedOutcome;
  /** Steps started in this attempt before the error. */
  readonly startedSteps: readonly string[];
  /** Why recording failed, for `not-recorded`. */
  readonly reportError: unknown;
  constructor(input: {
    operationId: string;
    attempt: number;
    recorded: RecordedOutcome;
    startedSteps: readonly string[];
    cause: unknown;
    reportError?: unknown;
  }) {
    super(
      `job of operation ${input.operationId} (attempt ${input.attempt}) failed; recorded ${input.recorded}: ${errorMessage(input.cause)}`,
      { cause: input.cause },
    );
    this.operationId = input.operationId;
    this.attempt = input.attempt;
    this.recorded = input.recorded;
    this.startedSteps = input.startedSteps;
    this.reportError = input.reportError ?? null;
  }
}

/** The job ran longer than `runOnce`'s `timeoutMs`. */
export class JobTimeoutError extends Error {
  override name = 'JobTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`the job did not finish within ${timeoutMs} ms`);
  }
}

/** A key or option refused locally, with the same field and message the ledger would send. */
export class InvalidKeyError extends Error {
  override name = 'InvalidKeyError';
  constructor(readonly errors: readonly { readonly field: string; readonly message: string }[]) {
    super(errors.map((e) => `${e.field}: ${e.message}`).join('; '));
  }
}

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function describe(status: number | null, cause: unknown): string {
  if (status !== null) return `last answer ${status}`;
  // fetch's "fetch failed" carries the network error (ECONNREFUSED, ENOTFOUND…) as its cause;
  // undici's request rejects with the network error itself (its message names the code).
  const c = cause as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = c?.cause?.code ?? c?.code;
  const message = errorMessage(cause);
  return typeof code === 'string' && !message.includes(code) ? `${message}: ${code}` : message;
}
