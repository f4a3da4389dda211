import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { decideWorkerCommand, type WorkerCommand, type WorkerResult } from '../../ledger/index.js';
import { CLOCK, type Clock } from '../core/clock.js';
import { OperationLocator } from '../core/operation-locator.js';
import { OperationStreams } from '../core/operation-stream.js';
import { answer, type HttpAnswer } from '../http/http-answer.js';
import { refusalProblem } from '../http/refusal-problem.js';
import { RunWorkerCommand } from './worker-command.command.js';

/**
 * Runs a fenced worker command through the decider loop: locate the key by operationId, load,
 * fold, decide, append with the revision read. Refusals become problems (409 stale-token, …);
 * a refusal that records an event (duplicate effect) records it before answering.
 */
@CommandHandler(RunWorkerCommand)
export class RunWorkerCommandHandler implements ICommandHandler<RunWorkerCommand, HttpAnswer> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly streams: OperationStreams,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, input, ctx, caller }: RunWorkerCommand): Promise<HttpAnswer> {
    const key = await this.locator.keyOf(operationId, caller);
    const decision = await this.streams.execute(
      key,
      (state) => decideWorkerCommand({ ...input, now: this.clock.now() } as WorkerCommand, state),
      ctx,
    );
    if (decision.kind === 'refused') throw refusalProblem(decision.refusal, operationId);
    return answer(200, present(operationId, decision.result));
  }
}

function present(operationId: string, r: WorkerResult) {
  return {
    operationId,
    state: r.state,
    ...(r.providerIdempotencyKey ? { providerIdempotencyKey: r.providerIdempotencyKey } : {}),
    alreadyRecorded: r.alreadyRecorded,
  };
}
