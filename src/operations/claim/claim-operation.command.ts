import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { RequestContext } from '../core/event-metadata.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { PreparedClaim } from './claim-input.js';

/**
 * Claim one operation; answers as POST /v1/claims would. `caller` is the API key's holder; a key
 * of another tenant than the claim's is refused 403 `forbidden-tenant`. The default (every
 * tenant) is for in-process callers that did not come through HTTP.
 */
export class ClaimOperationCommand extends Command<HttpAnswer> {
  constructor(
    readonly claim: PreparedClaim,
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
