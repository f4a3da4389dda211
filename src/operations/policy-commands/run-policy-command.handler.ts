import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { decide } from '../../ledger/index.js';
import { PolicyStore } from '../../policies/policy-store.js';
import { CLOCK, type Clock } from '../core/clock.js';
import { OperationLocator } from '../core/operation-locator.js';
import { OperationStreams } from '../core/operation-stream.js';
import { answer, type HttpAnswer } from '../http/http-answer.js';
import { refusalProblem } from '../http/refusal-problem.js';
import { RunOperationCommand } from './run-operation-command.command.js';

/**
 * Locates the operation (another tenant's answers 404 like an unknown id), reads its action's
 * policy, and runs the decider loop (load → fold → decide → append with the revision read).
 * Refusals become problem+json; accepted commands answer `{ operationId, state, … }`.
 */
@CommandHandler(RunOperationCommand)
export class RunOperationCommandHandler implements ICommandHandler<RunOperationCommand, HttpAnswer> {
  constructor(
    private readonly locator: OperationLocator,
    private readonly streams: OperationStreams,
    private readonly policies: PolicyStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ operationId, build, caller, ctx }: RunOperationCommand): Promise<HttpAnswer> {
    const key = await this.locator.keyOf(operationId, caller);
    const { policy, version } = await this.policies.policyFor(key.tenant, key.action);
    const decision = await this.streams.execute(
      key,
      (state) => decide(build(policy, this.clock.now()), state),
      ctx,
    );
    if (decision.kind === 'refused') throw refusalProblem(decision.refusal, operationId);
    const result = decision.result as Record<string, unknown>;
    return answer(200, { operationId, ...result, state: decision.stateAfter.status, policyVersion: version });
  }
}
