import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { decideResolve } from '../../ledger/index.js';
import { CLOCK, type Clock } from '../core/clock.js';
import { OperationLocator } from '../core/operation-locator.js';
import { OperationStreams } from '../core/operation-stream.js';
import { answer, type HttpAnswer } from '../http/http-answer.js';
import { refusalProblem } from '../http/refusal-problem.js';
import { ResolveOperationCommand } from './resolve-operation.command.js';

/** Appends `OperationResolved` (actor, reason, evidence) when the operation is Unknown; else 409. */
@CommandHandler(ResolveOperationCommand)
export class ResolveOperationHandler implements ICommandHandler<ResolveOperationCommand, HttpAnswer> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly streams: OperationStreams,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, input, ctx }: ResolveOperationCommand): Promise<HttpAnswer> {
    const key = await this.locator.keyOf(operationId);
    const decision = await this.streams.execute(
      key,
      (state) => decideResolve({ ...input, now: this.clock.now() }, state),
      ctx,
    );
    if (decision.kind === 'refused') throw refusalProblem(decision.refusal, operationId);
    return answer(200, { operationId, state: decision.result.state, resolution: input.resolution });
  }
}
