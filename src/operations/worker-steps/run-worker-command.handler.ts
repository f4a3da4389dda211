import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../common/clock.js';
import { decideWorkerCommand, type WorkerCommand } from '../../ledger/index.js';
import { DecideAndAppend } from '../decide-and-append.js';
import { OperationLocator } from '../operation-locator.js';
import { RunWorkerCommand, type WorkerOutcome } from './run-worker-command.command.js';

/**
 * Runs a fenced worker command on the located operation; refusals are values.
 * @throws EventStoreUnavailableError; ContentionError.
 */
@CommandHandler(RunWorkerCommand)
export class RunWorkerCommandHandler implements ICommandHandler<RunWorkerCommand, WorkerOutcome> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly loop: DecideAndAppend,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, input, ctx, caller }: RunWorkerCommand): Promise<WorkerOutcome> {
    const located = await this.locator.locate(operationId, caller);
    if (located.kind === 'not-found') return located;
    const command = { ...input, now: this.clock.now() } as WorkerCommand;
    return this.loop.run(located.key, (state) => decideWorkerCommand(command, state), ctx);
  }
}
