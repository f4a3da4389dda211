import { Command } from '@nestjs/cqrs';
import type { RequestContext } from '../core/event-metadata.js';
import type { HttpAnswer } from '../http/http-answer.js';
import type { PreparedClaim } from './claim-input.js';

/** Claim one operation; answers as POST /v1/claims would. */
export class ClaimOperationCommand extends Command<HttpAnswer> {
  constructor(
    readonly claim: PreparedClaim,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}
