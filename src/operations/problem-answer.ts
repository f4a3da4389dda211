import type { FastifyReply } from 'fastify';
import { problemForError } from '../common/error-problem.js';
import { problem, type ProblemDetails } from '../common/problem.js';
import { PROBLEM_STATUS } from '../common/problem-codes.js';
import { validationProblem } from '../common/validation.js';
import type { InputRejection, Refusal, RefusalCode } from '../ledger/index.js';
import type { OperationNotFound } from './operation-locator.js';

/**
 * An HTTP answer as data (docs/api.md "Problem details"): slices map their own results; the
 * refusals they share are mapped here as problem+json (RFC 9457).
 */
export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** HTTP status of each refusal: the refusal codes' rows of the one table, {@link PROBLEM_STATUS}. */
export const REFUSAL_STATUS: Readonly<Record<RefusalCode, number>> = PROBLEM_STATUS;

/** An answer of `status` with `body` and `headers`. */
export function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, body, headers };
}

/** A problem document (and its headers, e.g. Retry-After) as an answer. */
export function problemAnswer(p: {
  readonly problem: ProblemDetails;
  readonly headers: Readonly<Record<string, string>>;
}): HttpAnswer {
  return { status: p.problem.status, body: p.problem, headers: p.headers };
}

/**
 * 404 `not-found` of an operation id: the same body for an id no claim created and for another
 * tenant's operation (no existence oracle across tenants).
 */
export function notFoundAnswer({ operationId }: OperationNotFound): HttpAnswer {
  return answer(404, problem('not-found', 404, `no operation ${operationId}`));
}

/** 400 `invalid-key` / `validation` naming the fields, or 413 `payload-too-large`. */
export function rejectionAnswer(rejection: InputRejection): HttpAnswer {
  if (rejection.kind === 'invalid') return problemAnswer(validationProblem(rejection.issues));
  const { payloadBytes, maxPayloadBytes } = rejection;
  return answer(
    413,
    problem('payload-too-large', 413, `payload is ${payloadBytes} bytes; the limit is ${maxPayloadBytes}`, {
      errors: [{ field: 'payload', message: `must be at most ${maxPayloadBytes} bytes of JSON` }],
    }),
  );
}

/**
 * A domain refusal as problem+json; `retryAfterMs` becomes Retry-After in whole seconds, at least
 * 1 (RFC 9110 §10.2.3).
 */
export function refusalAnswer(refusal: Refusal, operationId: string): HttpAnswer {
  const { code, message, retryAfterMs, ...extensions } = refusal;
  const headers: Record<string, string> = {};
  if (retryAfterMs !== undefined)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  const extra: Record<string, unknown> = { ...extensions };
  if (operationId) extra.operationId = operationId;
  if (retryAfterMs !== undefined) extra.retryAfterMs = retryAfterMs;
  return answer(REFUSAL_STATUS[code], problem(code, REFUSAL_STATUS[code], message, extra), headers);
}

/**
 * The answer a documented error gets (a ProblemException, 503 store-unavailable / contention),
 * as data. Unexpected errors are rethrown: a batch must not hide a bug as one slot's 500.
 */
export function errorAnswer(err: unknown): HttpAnswer {
  const known = problemForError(err);
  if (!known) throw err;
  return problemAnswer(known);
}

/** Applies an answer's status and headers to a passthrough response and returns its body. */
export function sendAnswer(res: FastifyReply, a: HttpAnswer): unknown {
  res.status(a.status);
  for (const [name, value] of Object.entries(a.headers)) res.header(name, value);
  if (a.status >= 400) res.type('application/problem+json');
  return a.body;
}
