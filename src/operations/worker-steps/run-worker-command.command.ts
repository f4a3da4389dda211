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

/** A fenced follow-up of a claim, addressed by operationId (plain data). */
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
