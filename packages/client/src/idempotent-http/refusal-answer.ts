import {
  AwaitingApprovalError,
  AwaitingRecoveryError,
  InProgressError,
  LedgerRequestError,
  LedgerUnavailableError,
  PayloadConflictError,
} from '../errors.js';
import type { HttpAnswer } from './http-answer.js';
import { problemAnswer } from './problem-answer.js';

/**
 * The answer to a retry the ledger refused, per draft-ietf-httpapi-idempotency-key-header §2.7:
 * the first request still running → 409 `in-progress` with Retry-After; the key reused with
 * another payload → 422 `payload-conflict` naming both fingerprints; an effect started and its
 * outcome unknown → 409 `awaiting-recovery` (never a re-run); the ledger unreachable or rate-limiting
 * this service → 503 with Retry-After; the ledger refusing this service's API key or role (401, 403)
 * → 500, as it is no fault of the client. Null for an error that is no refusal (the caller rethrows
 * it). Pure.
 */
export function refusalAnswer(err: unknown, key: string): HttpAnswer | null {
  if (err instanceof InProgressError)
    return problemAnswer(
      409,
      'in-progress',
      'A request with this Idempotency-Key is being processed',
      `the first request with Idempotency-Key "${key}" has not finished; retry after Retry-After`,
      {},
      err.retryAfterMs / 1000,
    );
  if (err instanceof PayloadConflictError)
    return problemAnswer(
      422,
      'payload-conflict',
      'Idempotency-Key reused with another request',
      `Idempotency-Key "${key}" was first used with a request of another fingerprint`,
      { existingFingerprint: err.existingFingerprint, incomingFingerprint: err.incomingFingerprint },
    );
  if (err instanceof AwaitingRecoveryError)
    return problemAnswer(
      409,
      'awaiting-recovery',
      'The outcome of the first request is unknown',
      `the first request with Idempotency-Key "${key}" started an effect and did not finish; it is not run again until an operator or a recovery settles it`,
    );
  if (err instanceof AwaitingApprovalError)
    return problemAnswer(409, 'awaiting-approval', 'Awaiting approval', err.problem.detail);
  if (err instanceof LedgerUnavailableError)
    return problemAnswer(
      503,
      'ledger-unavailable',
      'Idempotency ledger unavailable',
      'the request was not run: its Idempotency-Key could not be checked',
      {},
      1,
    );
  if (err instanceof LedgerRequestError && (err.status === 401 || err.status === 403))
    return problemAnswer(
      500,
      'ledger-refused-app',
      'Idempotency ledger refused this service',
      'the request was not run: the idempotency ledger refused this service (its API key or role)',
    );
  if (err instanceof LedgerRequestError && err.status === 429)
    return problemAnswer(
      503,
      'ledger-unavailable',
      'Idempotency ledger busy',
      'the request was not run: the ledger asked this service to slow down',
      {},
      1,
    );
  if (err instanceof LedgerRequestError)
    return problemAnswer(
      err.status >= 500 ? 503 : err.status,
      err.code,
      err.problem.title,
      err.problem.detail,
    );
  return null;
}
