import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import type { Refusal, RefusalCode } from '../../ledger/index.js';

/** HTTP status of each refusal (API.md). */
export const REFUSAL_STATUS: Readonly<Record<RefusalCode, number>> = {
  'in-progress': 409,
  'awaiting-recovery': 409,
  'payload-conflict': 422,
  'stale-token': 409,
  'duplicate-effect': 409,
  'outcome-uncertain': 409,
  'not-unknown': 409,
  'not-in-progress': 409,
  'step-not-started': 409,
  'not-found': 404,
  'awaiting-approval': 409,
  superseded: 409,
  'not-awaiting-approval': 409,
  'not-final-failure': 409,
  'replay-not-allowed': 409,
  'no-duplicate-effect': 409,
  'operator-only-recovery': 409,
  'retention-expired': 410,
};

/**
 * A domain refusal as problem+json. `in-progress` carries Retry-After: the seconds left on the
 * holder's lease, rounded up (RFC 9110 §10.2.3). Extension members: `state`, and per code
 * `existingFingerprint`/`incomingFingerprint` or `recordedRef`/`incomingRef`.
 */
export function refusalProblem(refusal: Refusal, operationId?: string): ProblemException {
  const { code, message, retryAfterMs, ...extensions } = refusal;
  const headers: Record<string, string> = {};
  if (retryAfterMs !== undefined)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  const extra: Record<string, unknown> = { ...extensions };
  if (operationId) extra.operationId = operationId;
  if (retryAfterMs !== undefined) extra.retryAfterMs = retryAfterMs;
  return new ProblemException(problem(code, REFUSAL_STATUS[code], message, extra), headers);
}
