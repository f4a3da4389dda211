import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../common/clock.js';
import { decideWorkerCommand, type WorkerCommand, type WorkerResult } from '../../ledger/index.js';
import { DecideAndAppend, type Executed } from '../decide-and-append.js';
import { OperationLocator } from '../operation-locator.js';
import { RunWorkerCommand } from './run-worker-command.command.js';

/**
 * Runs a fenced worker command: locate the key by operationId, then the decide-and-append loop at
 * the server time (read once). Refusals are returned as decisions (stale-token, …); a refusal
 * that records an event (duplicate effect) has recorded it.
 * @throws ProblemException 404 `not-found` (unknown id, or another tenant's); EventStoreUnavailableError; ContentionError.
 */
@CommandHandler(RunWorkerCommand)
export class RunWorkerCommandHandler implements ICommandHandler<RunWorkerCommand, Executed<WorkerResult>> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly loop: DecideAndAppend,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, input, ctx, caller }: RunWorkerCommand): Promise<Executed<WorkerResult>> {
    const key = await this.locator.keyOf(operationId, caller);
    const command = { ...input, now: this.clock.now() } as WorkerCommand;
    return this.loop.run(key, (state) => decideWorkerCommand(command, state), ctx);
  }
}
