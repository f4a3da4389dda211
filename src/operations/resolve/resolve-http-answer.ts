import type { RecordDestinationReference, ResolveOperation } from '../../ledger/index.js';
import { answer, notFoundAnswer, refusalAnswer, type HttpAnswer } from '../problem-answer.js';
import type { ReferenceAnswerDto, ResolveAnswerDto } from './resolve-answers.dto.js';
import type { ResolveOutcome } from './resolve-operation.command.js';

/**
 * A resolution (docs/api.md "Recovery and operator workflows"): 200 `{ operationId, state,
 * resolution, actor, requestedActor? }`, the refusal's problem, or 404 `not-found`.
 */
export function resolveAnswer(
  operationId: string,
  command: Omit<ResolveOperation, 'now'>,
  outcome: ResolveOutcome,
): HttpAnswer {
  if (outcome.kind === 'not-found') return notFoundAnswer(outcome);
  if (outcome.kind === 'refused') return refusalAnswer(outcome.refusal, operationId);
  return answer(200, {
    operationId,
    state: outcome.result.state,
    resolution: command.resolution,
    actor: command.actor,
    ...(command.requestedActor !== undefined ? { requestedActor: command.requestedActor } : {}),
  } satisfies ResolveAnswerDto);
}

/**
 * A recorded destination reference: 200 `{ operationId, state, destinationRef, alreadyRecorded,
 * actor, requestedActor? }`, the refusal's problem, or 404 `not-found`.
 */
export function referenceAnswer(
  operationId: string,
  command: Omit<RecordDestinationReference, 'now'>,
  outcome: ResolveOutcome,
): HttpAnswer {
  if (outcome.kind === 'not-found') return notFoundAnswer(outcome);
  if (outcome.kind === 'refused') return refusalAnswer(outcome.refusal, operationId);
  return answer(200, {
    operationId,
    state: outcome.result.state,
    destinationRef: command.destinationRef,
    alreadyRecorded: outcome.result.alreadyRecorded ?? false,
    actor: command.actor,
    ...(command.requestedActor !== undefined ? { requestedActor: command.requestedActor } : {}),
  } satisfies ReferenceAnswerDto);
}
