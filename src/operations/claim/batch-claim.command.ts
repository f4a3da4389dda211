import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { RequestContext } from '../request-context.js';
import type { BatchItemOutcome } from './claim-outcome.js';

/**
 * Claim up to 500 operations (plain data: the items as parsed JSON); each item comes to what
 * POST /v1/claims would come to for `caller`, in input order.
 */
export class BatchClaimCommand extends Command<BatchItemOutcome[]> {
  constructor(
    readonly items: readonly unknown[],
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
