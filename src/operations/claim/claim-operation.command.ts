import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { ClaimRequest } from '../../ledger/index.js';
import type { RequestContext } from '../request-context.js';
import type { ClaimOutcome } from './claim-outcome.js';

/** Claim one operation (plain data); `caller` defaults to every tenant, for in-process callers. */
export class ClaimOperationCommand extends Command<ClaimOutcome> {
  constructor(
    readonly request: ClaimRequest,
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
