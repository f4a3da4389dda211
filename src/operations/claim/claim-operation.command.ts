import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { ClaimRequest } from '../../ledger/index.js';
import type { RequestContext } from '../request-context.js';
import type { ClaimOutcome } from './claim-outcome.js';

/**
 * Claim one operation (plain data). `caller` is the API key's holder; a key of another tenant
 * than the claim's comes back `forbidden-tenant`. The default (every tenant) is for in-process
 * callers that did not come through HTTP.
 */
export class ClaimOperationCommand extends Command<ClaimOutcome> {
  constructor(
    readonly request: ClaimRequest,
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
