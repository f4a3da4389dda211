import {
  answer,
  notFoundAnswer,
  refusalAnswer,
  rejectionAnswer,
  type HttpAnswer,
} from '../problem-answer.js';
import type { PolicyCommandAnswerDto } from './policy-command-answers.dto.js';
import type { PolicyCommandOutcome } from './run-policy-command.command.js';

/**
 * A command under the action's policy (docs/guide.md "Recovery and operator workflows"): 200
 * `{ operationId, …result, state, policyVersion }`, 400/413 for rejected input, the refusal's
 * problem, or 404 `not-found`.
 */
export function policyCommandAnswer(operationId: string, outcome: PolicyCommandOutcome): HttpAnswer {
  if (outcome.kind === 'invalid' || outcome.kind === 'payload-too-large') return rejectionAnswer(outcome);
  if (outcome.kind === 'not-found') return notFoundAnswer(outcome);
  if (outcome.kind === 'refused') return refusalAnswer(outcome.refusal, operationId);
  const result = outcome.result as Record<string, unknown>;
  return answer(200, {
    operationId,
    ...result,
    state: outcome.stateAfter.status,
    policyVersion: outcome.policyVersion,
  } satisfies PolicyCommandAnswerDto);
}
