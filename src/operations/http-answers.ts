import type { FastifyReply } from 'fastify';
import { problemForError } from '../common/error-problem.js';
import { problem } from '../common/problem.js';
import { PROBLEM_STATUS, type ProblemCode } from '../common/problem-codes.js';
import { ProblemException } from '../common/problem.exception.js';
import { validationProblem } from '../common/validation.js';
import { forbiddenTenant } from '../auth/auth-problems.js';
import type {
  InputRejection,
  RecordDestinationReference,
  Refusal,
  RefusalCode,
  ResolveOperation,
  ResolveResult,
  WorkerResult,
} from '../ledger/index.js';
import type { ClaimAcquiredDto, ClaimReplayedDto } from './claim/claim-answers.dto.js';
import type { PolicyCommandAnswerDto } from './policy-commands/policy-command-answers.dto.js';
import type { ReferenceAnswerDto, ResolveAnswerDto } from './resolve/resolve-answers.dto.js';
import type { WorkerAnswerDto } from './worker-steps/worker-answer.dto.js';
import type { BatchItemOutcome, ClaimOutcome, PolicyCommandOutcome } from './command-results.js';
import type { Executed } from './decide-and-append.js';

/**
 * The HTTP mapping of operations (docs/api.md "Claims", "Worker follow-ups", "Problem details"): every command result becomes a status, headers
 * and a body — problem+json (RFC 9457) for refusals and rejections — here and nowhere else.
 * Single routes send it ({@link sendAnswer}); batch slots hold it.
 */
export interface HttpAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** Header set on a replayed outcome (the draft IETF idempotency-key convention). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** HTTP status of each refusal: the refusal codes' rows of the one table, {@link PROBLEM_STATUS}. */
export const REFUSAL_STATUS: Readonly<Record<RefusalCode, number>> = PROBLEM_STATUS;

/** Problems a claim answers besides the common ones (docs/api.md "Claims"); a batch slot too. */
export const CLAIM_PROBLEMS = [
  'invalid-key',
  'forbidden-tenant',
  'in-progress',
  'awaiting-recovery',
  'awaiting-approval',
  'superseded',
  'retention-expired',
  'payload-conflict',
] as const satisfies readonly ProblemCode[];

/**
 * A claim: 201 acquired, 200 replay with `Idempotent-Replayed: true`, the refusal's problem,
 * 400/413 for rejected input, 403 `forbidden-tenant`.
 */
export function claimAnswer(outcome: ClaimOutcome): HttpAnswer {
  switch (outcome.kind) {
    case 'invalid':
    case 'payload-too-large':
      return rejectionAnswer(outcome);
    case 'forbidden-tenant':
      return problemAnswer(forbiddenTenant(outcome.tenant));
    case 'refused':
      return refusalAnswer(outcome.refusal, outcome.operationId);
  }
  const r = outcome.result;
  if (r.kind === 'acquired') {
    return answer(201, {
      operationId: r.operationId,
      state: 'in_progress',
      attempt: r.attempt,
      fencingToken: r.fencingToken,
      leaseExpiresAt: r.leaseExpiresAt,
      fingerprint: r.fingerprint,
      reason: r.reason,
      completedSteps: r.completedSteps,
      ...(r.startedStep ? { startedStep: r.startedStep } : {}),
    } satisfies ClaimAcquiredDto);
  }
  return answer(
    200,
    {
      operationId: r.operationId,
      state: r.state,
      replayed: true,
      outcome: r.outcome,
    } satisfies ClaimReplayedDto,
    { [REPLAYED_HEADER]: 'true' },
  );
}

/** One slot of a batch: as the single claim would answer, or 503 when the store failed it. */
export function batchSlotAnswer(outcome: BatchItemOutcome): HttpAnswer {
  return outcome.kind === 'failed' ? errorAnswer(outcome.error) : claimAnswer(outcome);
}

/** A fenced worker command: 200 `{ operationId, state, providerIdempotencyKey?, alreadyRecorded }`. */
export function workerAnswer(operationId: string, executed: Executed<WorkerResult>): HttpAnswer {
  if (executed.kind === 'refused') return refusalAnswer(executed.refusal, operationId);
  const r = executed.result;
  return answer(200, {
    operationId,
    state: r.state,
    ...(r.providerIdempotencyKey ? { providerIdempotencyKey: r.providerIdempotencyKey } : {}),
    alreadyRecorded: r.alreadyRecorded,
  } satisfies WorkerAnswerDto);
}

/** A resolution: 200 `{ operationId, state, resolution, actor, requestedActor? }`. */
export function resolveAnswer(
  operationId: string,
  command: Omit<ResolveOperation, 'now'>,
  executed: Executed<ResolveResult>,
): HttpAnswer {
  if (executed.kind === 'refused') return refusalAnswer(executed.refusal, operationId);
  return answer(200, {
    operationId,
    state: executed.result.state,
    resolution: command.resolution,
    actor: command.actor,
    ...(command.requestedActor !== undefined ? { requestedActor: command.requestedActor } : {}),
  } satisfies ResolveAnswerDto);
}

/** A recorded destination reference: 200 `{ operationId, state, destinationRef, alreadyRecorded, actor, requestedActor? }`. */
export function referenceAnswer(
  operationId: string,
  command: Omit<RecordDestinationReference, 'now'>,
  executed: Executed<ResolveResult>,
): HttpAnswer {
  if (executed.kind === 'refused') return refusalAnswer(executed.refusal, operationId);
  return answer(200, {
    operationId,
    state: executed.result.state,
    destinationRef: command.destinationRef,
    alreadyRecorded: executed.result.alreadyRecorded ?? false,
    actor: command.actor,
    ...(command.requestedActor !== undefined ? { requestedActor: command.requestedActor } : {}),
  } satisfies ReferenceAnswerDto);
}

/** A command under the action's policy: 200 `{ operationId, …result, state, policyVersion }`. */
export function policyCommandAnswer(operationId: string, outcome: PolicyCommandOutcome): HttpAnswer {
  if (outcome.kind === 'invalid' || outcome.kind === 'payload-too-large') return rejectionAnswer(outcome);
  if (outcome.kind === 'refused') return refusalAnswer(outcome.refusal, operationId);
  const result = outcome.result as Record<string, unknown>;
  return answer(200, {
    operationId,
    ...result,
    state: outcome.stateAfter.status,
    policyVersion: outcome.policyVersion,
  } satisfies PolicyCommandAnswerDto);
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

function answer(status: number, body: unknown, headers: Record<string, string> = {}): HttpAnswer {
  return { status, body, headers };
}

function problemAnswer(p: ProblemException): HttpAnswer {
  return { status: p.problem.status, body: p.problem, headers: p.headers };
}

/** 400 `invalid-key` / `validation` naming the fields, or 413 `payload-too-large`. */
function rejectionAnswer(rejection: InputRejection): HttpAnswer {
  if (rejection.kind === 'invalid') return problemAnswer(validationProblem(rejection.issues));
  const { payloadBytes, maxPayloadBytes } = rejection;
  return problemAnswer(
    new ProblemException(
      problem('payload-too-large', 413, `payload is ${payloadBytes} bytes; the limit is ${maxPayloadBytes}`, {
        errors: [{ field: 'payload', message: `must be at most ${maxPayloadBytes} bytes of JSON` }],
      }),
    ),
  );
}

/**
 * A domain refusal as problem+json. `in-progress` carries Retry-After: `retryAfterMs` in seconds,
 * rounded up, at least 1 (RFC 9110 §10.2.3) — the lease's rest capped at 5 s; `leaseExpiresAt`
 * in the body. Extension members: `state`, and per code `existingFingerprint`/
 * `incomingFingerprint` or `recordedRef`/`incomingRef`.
 */
function refusalAnswer(refusal: Refusal, operationId: string): HttpAnswer {
  const { code, message, retryAfterMs, ...extensions } = refusal;
  const headers: Record<string, string> = {};
  if (retryAfterMs !== undefined)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  const extra: Record<string, unknown> = { ...extensions };
  if (operationId) extra.operationId = operationId;
  if (retryAfterMs !== undefined) extra.retryAfterMs = retryAfterMs;
  return answer(REFUSAL_STATUS[code], problem(code, REFUSAL_STATUS[code], message, extra), headers);
}
