import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../auth/caller.js';
import type { PolicyCommandRequest } from '../../ledger/index.js';
import type { PolicyCommandOutcome } from '../command-results.js';
import type { RequestContext } from '../request-context.js';

/**
 * A command on one operation addressed by id whose full form depends on the action's policy —
 * operator actions, recovery evidence, lease renewal — as plain data (the domain completes it
 * with `commandUnderPolicy`); comes to the decision and the policy version applied.
 */
export class RunPolicyCommand extends Command<PolicyCommandOutcome> {
  constructor(
    readonly operationId: string,
    readonly request: PolicyCommandRequest,
    readonly caller: Caller,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}
