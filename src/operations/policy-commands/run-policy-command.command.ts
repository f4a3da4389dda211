import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../auth/caller.js';
import type { InputRejection, PolicyCommandRequest } from '../../ledger/index.js';
import type { Executed } from '../decide-and-append.js';
import type { OperationNotFound } from '../operation-locator.js';
import type { RequestContext } from '../request-context.js';

/**
 * A command decided under the action's policy: rejected input, `not-found` (an unknown id, or
 * another tenant's), or the decision and the version applied.
 */
export type PolicyCommandOutcome =
  InputRejection | OperationNotFound | (Executed<unknown> & { readonly policyVersion: number });

/** A command on one operation whose full form the action's policy completes (`commandUnderPolicy`). */
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
