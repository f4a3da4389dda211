import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { decideResolve, type Decision, type ResolveResult } from '../../ledger/index.js';
import { CLOCK, type Clock } from '../core/clock.js';
import { OperationLocator } from '../core/operation-locator.js';
import { OperationStreams } from '../core/operation-stream.js';
import { answer, type HttpAnswer } from '../http/http-answer.js';
import { refusalProblem } from '../http/refusal-problem.js';
import { ResolveOperationCommand } from './resolve-operation.command.js';

/**
 * Appends `OperationResolved` (actor, reason, evidence; `requestedActor` when the body named a
 * different actor than the key's holder) when the operation is Unknown; else 409.
 */
@CommandHandler(ResolveOperationCommand)
export class ResolveOperationHandler implements ICommandHandler<ResolveOperationCommand, HttpAnswer> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly streams: OperationStreams,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({
    operationId,
    input,
    ctx,
    caller,
    requestedActor,
  }: ResolveOperationCommand): Promise<HttpAnswer> {
    const key = await this.locator.keyOf(operationId, caller);
    const decision = await this.streams.execute(
      key,
      (state) =>
        withRequestedActor(decideResolve({ ...input, now: this.clock.now() }, state), requestedActor),
      ctx,
    );
    if (decision.kind === 'refused') throw refusalProblem(decision.refusal, operationId);
    return answer(200, {
      operationId,
      state: decision.result.state,
      resolution: input.resolution,
      actor: input.actor,
      ...(requestedActor !== undefined ? { requestedActor } : {}),
    });
  }
}

/** Adds `requestedActor` to the data of the decision's OperationResolved event, if given. */
function withRequestedActor(
  decision: Decision<ResolveResult>,
  requestedActor?: string,
): Decision<ResolveResult> {
  if (requestedActor === undefined) return decision;
  const events = decision.events.map((e) =>
    e.type === 'OperationResolved' ? ({ ...e, data: { ...e.data, requestedActor } } as typeof e) : e,
  );
  return { ...decision, events };
}
