import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { ResolveOperation } from '../../ledger/index.js';
import type { RequestContext } from '../core/event-metadata.js';
import type { HttpAnswer } from '../http/http-answer.js';

/**
 * An operator resolves an Unknown operation (confirmed / not_found / abandoned). `input.actor` is
 * the key holder; `requestedActor` the body's differing `actor`, recorded alongside. An operation
 * of a tenant `caller` may not see answers 404 (default caller: every tenant, in-process use).
 */
export class ResolveOperationCommand extends Command<HttpAnswer> {
  constructor(
    readonly operationId: string,
    readonly input: Omit<ResolveOperation, 'now'>,
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
    readonly requestedActor?: string,
  ) {
    super();
  }
}
