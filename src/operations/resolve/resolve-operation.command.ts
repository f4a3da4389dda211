import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { RecordDestinationReference, ResolveOperation, ResolveResult } from '../../ledger/index.js';
import type { Executed } from '../decide-and-append.js';
import type { RequestContext } from '../request-context.js';

/**
 * An operator resolves an Unknown operation (confirmed / not_found / abandoned), or records the
 * destination reference of one confirmed without it (`RecordDestinationReference`), as plain data.
 * `input.actor` is the key holder; `input.requestedActor` the body's differing `actor`, recorded
 * alongside. An operation of a tenant `caller` may not see is answered 404 (default caller: every
 * tenant, for in-process use).
 */
export class ResolveOperationCommand extends Command<Executed<ResolveResult>> {
  constructor(
    readonly operationId: string,
    readonly input: Omit<ResolveOperation, 'now'> | Omit<RecordDestinationReference, 'now'>,
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
