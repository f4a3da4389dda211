import { answer, notFoundAnswer, refusalAnswer, type HttpAnswer } from '../problem-answer.js';
import type { WorkerOutcome } from './run-worker-command.command.js';
import type { WorkerAnswerDto } from './worker-answer.dto.js';

/**
 * A fenced worker command (docs/api.md "Worker follow-ups"): 200 `{ operationId, state,
 * providerIdempotencyKey?, alreadyRecorded }`, the refusal's problem, or 404 `not-found`.
 */
export function workerAnswer(operationId: string, outcome: WorkerOutcome): HttpAnswer {
  if (outcome.kind === 'not-found') return notFoundAnswer(outcome);
  if (outcome.kind === 'refused') return refusalAnswer(outcome.refusal, operationId);
  const r = outcome.result;
  return answer(200, {
    operationId,
    state: r.state,
    ...(r.providerIdempotencyKey ? { providerIdempotencyKey: r.providerIdempotencyKey } : {}),
    alreadyRecorded: r.alreadyRecorded,
  } satisfies WorkerAnswerDto);
}
