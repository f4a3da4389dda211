import type { ProblemCode } from '../../common/problem-codes.js';
import { forbiddenTenant } from '../../auth/auth-problems.js';
import {
  answer,
  errorAnswer,
  problemAnswer,
  refusalAnswer,
  rejectionAnswer,
  type HttpAnswer,
} from '../problem-answer.js';
import type { ClaimAcquiredDto, ClaimReplayedDto } from './claim-answers.dto.js';
import type { BatchItemOutcome, ClaimOutcome } from './claim-outcome.js';

/** Header set on a replayed outcome (the draft IETF idempotency-key convention). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

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
 * A claim (docs/api.md "Claims"): 201 acquired, 200 replay with `Idempotent-Replayed: true`, the
 * refusal's problem, 400/413 for rejected input, 403 `forbidden-tenant`.
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
