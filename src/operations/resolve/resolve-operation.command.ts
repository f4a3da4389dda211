import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { RecordDestinationReference, ResolveOperation, ResolveResult } from '../../ledger/index.js';
import type { Executed } from '../decide-and-append.js';
import type { OperationNotFound } from '../operation-locator.js';
import type { RequestContext } from '../request-context.js';

/** What a resolution comes to: the decision taken, or `not-found` (an unknown id, or another tenant's). */
export type ResolveOutcome = Executed<ResolveResult> | OperationNotFound;

/**
 * An operator resolves an Unknown operation, or records the destination reference of a confirmed
 * one; `input.requestedActor` is the body's differing `actor`, recorded alongside.
 */
export class ResolveOperationCommand extends Command<ResolveOutcome> {
  constructor(
    readonly operationId: string,
    readonly input: Omit<ResolveOperation, 'now'> | Omit<RecordDestinationReference, 'now'>,
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
