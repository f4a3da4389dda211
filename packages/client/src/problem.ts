import {
  AwaitingApprovalError,
  AwaitingRecoveryError,
  DuplicateEffectError,
  InProgressError,
  LeaseLostError,
  LedgerRequestError,
  PayloadConflictError,
  RetentionExpiredError,
  SupersededError,
  type Problem,
} from './errors.js';

/**
 * A problem document from any error body: `code` from the body's `code`, else the last path
 * segment of `type` (RFC 9457 §3.1.1), else `http-<status>`.
 */
export function toProblem(status: number, body: unknown): Problem {
  const b = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<
    string,
    unknown
  >;
  const type = typeof b.type === 'string' ? b.type : 'about:blank';
  const fromType = type === 'about:blank' ? undefined : type.split('/').filter(Boolean).pop();
  const code = typeof b.code === 'string' ? b.code : (fromType ?? `http-${status}`);
  return {
    ...b,
    type,
    title: typeof b.title === 'string' ? b.title : code,
    status: typeof b.status === 'number' ? b.status : status,
    detail: typeof b.detail === 'string' ? b.detail : typeof body === 'string' ? body : '',
    code,
  };
}

/**
 * How long to wait before asking again, ms: the problem's `retryAfterMs` (finer than the
 * header), else `Retry-After` in seconds (RFC 9110 §10.2.3), else `fallbackMs`.
 */
export function retryAfterMsOf(problem: Problem | null, headers: Headers | null, fallbackMs: number): number {
  const fromBody = problem?.retryAfterMs;
  if (typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0) return fromBody;
  const header = headers?.get('retry-after') ?? null;
  if (header !== null) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  return fallbackMs;
}

/** The typed error of a refusal, by problem code (docs/security.md "What each refusal means"). */
export function errorFromProblem(
  problem: Problem,
  request: string,
  headers: Headers | null,
): LedgerRequestError {
  switch (problem.code) {
    case 'in-progress':
      return new InProgressError(problem, request, retryAfterMsOf(problem, headers, 1000));
    case 'payload-conflict':
      return new PayloadConflictError(problem, request);
    case 'awaiting-recovery':
      return new AwaitingRecoveryError(problem, request);
    case 'awaiting-approval':
      return new AwaitingApprovalError(problem, request);
    case 'superseded':
      return new SupersededError(problem, request);
    case 'retention-expired':
      return new RetentionExpiredError(problem, request);
    case 'stale-token':
    case 'not-in-progress':
      return new LeaseLostError(problem, request);
    case 'duplicate-effect':
      return new DuplicateEffectError(problem, request);
    default:
      return new LedgerRequestError(problem, request);
  }
}
