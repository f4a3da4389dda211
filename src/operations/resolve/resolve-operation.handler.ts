import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../common/clock.js';
import { decideRecordReference, decideResolve } from '../../ledger/index.js';
import { DecideAndAppend } from '../decide-and-append.js';
import { OperationLocator } from '../operation-locator.js';
import { ResolveOperationCommand, type ResolveOutcome } from './resolve-operation.command.js';

/**
 * Runs `decideResolve` (or `decideRecordReference`) on the located operation.
 * @throws EventStoreUnavailableError; ContentionError.
 */
@CommandHandler(ResolveOperationCommand)
export class ResolveOperationHandler implements ICommandHandler<ResolveOperationCommand, ResolveOutcome> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly loop: DecideAndAppend,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, input, ctx, caller }: ResolveOperationCommand): Promise<ResolveOutcome> {
    const located = await this.locator.locate(operationId, caller);
    if (located.kind === 'not-found') return located;
    const key = located.key;
    const now = this.clock.now();
    if (input.type === 'RecordDestinationReference') {
      const command = { ...input, now };
      return this.loop.run(key, (state) => decideRecordReference(command, state), ctx);
    }
    const command = { ...input, now };
    return this.loop.run(key, (state) => decideResolve(command, state), ctx);
  }
}
