import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../common/clock.js';
import { commandUnderPolicy, decide } from '../../ledger/index.js';
import { PolicyStore } from '../../policies/policy-store.js';
import { DecideAndAppend } from '../decide-and-append.js';
import { OperationLocator } from '../operation-locator.js';
import { RunPolicyCommand, type PolicyCommandOutcome } from './run-policy-command.command.js';

/**
 * Runs a {@link RunPolicyCommand} under the operation's action policy.
 * @throws EventStoreUnavailableError; ContentionError.
 */
@CommandHandler(RunPolicyCommand)
export class RunPolicyCommandHandler implements ICommandHandler<RunPolicyCommand, PolicyCommandOutcome> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly loop: DecideAndAppend,
    private readonly policies: PolicyStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, request, caller, ctx }: RunPolicyCommand): Promise<PolicyCommandOutcome> {
    const located = await this.locator.locate(operationId, caller);
    if (located.kind === 'not-found') return located;
    const key = located.key;
    const { policy, version } = await this.policies.policyFor(key.tenant, key.action);
    const command = commandUnderPolicy(request, policy, this.clock.now());
    if (!command.ok) return command.rejection;
    const executed = await this.loop.run(key, (state) => decide(command.value, state), ctx);
    return { ...executed, policyVersion: version };
  }
}
