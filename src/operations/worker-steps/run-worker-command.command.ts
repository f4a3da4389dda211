import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { WorkerCommand, WorkerResult } from '../../ledger/index.js';
import type { Executed } from '../decide-and-append.js';
import type { OperationNotFound } from '../operation-locator.js';
import type { RequestContext } from '../request-context.js';

/** A worker command without the server time (the handler adds it). */
export type WorkerCommandInput = WorkerCommand extends infer C
  ? C extends WorkerCommand
    ? Omit<C, 'now'>
    : never
  : never;

/** What a worker command comes to: the decision taken, or `not-found` (an unknown id, or another tenant's). */
export type WorkerOutcome = Executed<WorkerResult> | OperationNotFound;

/**
 * A fenced follow-up of a claim — step start/complete, confirm, fail, release, report unknown —
 * addressed by operationId (plain data); comes to the decision taken. An operation of a tenant
 * `caller` may not see comes back `not-found` like an unknown id (default caller: every tenant,
 * for in-process callers).
 */
export class RunWorkerCommand extends Command<WorkerOutcome> {
  constructor(
    readonly operationId: string,
    readonly input: WorkerCommandInput,
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
