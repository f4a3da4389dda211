import type { ClaimResult, Decision } from '../../ledger/index.js';
import { answer, type HttpAnswer } from '../http/http-answer.js';
import { refusalProblem } from '../http/refusal-problem.js';

/** Header set on a replayed outcome (the draft IETF idempotency-key convention). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The HTTP answer of a claim decision (API.md): 201 acquired, 200 replay with
 * `Idempotent-Replayed: true`, or the refusal's problem.
 */
export function presentClaim(decision: Decision<ClaimResult>, operationId: string): HttpAnswer {
  if (decision.kind === 'refused') {
    const p = refusalProblem(decision.refusal, operationId);
    return { status: p.problem.status, body: p.problem, headers: p.headers };
  }
  const r = decision.result;
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
    });
  }
  return answer(
    200,
    { operationId: r.operationId, state: r.state, replayed: true, outcome: r.outcome },
    { [REPLAYED_HEADER]: 'true' },
  );
}
