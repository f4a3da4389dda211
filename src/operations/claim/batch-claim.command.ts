import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { RequestContext } from '../core/event-metadata.js';

/** One slot of a batch answer (API.md): the single claim's status and body. */
export interface BatchSlot {
  readonly index: number;
  readonly status: number;
  readonly body: unknown;
}

/**
 * Claim up to 500 operations; each item is answered as POST /v1/claims would answer it for
 * `caller` (an item of another tenant gets 403 `forbidden-tenant` in its slot).
 */
export class BatchClaimCommand extends Command<BatchSlot[]> {
  constructor(
    readonly items: readonly unknown[],
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
