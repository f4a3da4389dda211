import { Command } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { WorkerCommand } from '../../ledger/index.js';
import type { RequestContext } from '../core/event-metadata.js';
import type { HttpAnswer } from '../http/http-answer.js';

/** A worker command without the server time (the handler adds it). */
export type WorkerCommandInput = WorkerCommand extends infer C
  ? C extends WorkerCommand
    ? Omit<C, 'now'>
    : never
  : never;

/**
 * A fenced follow-up of a claim — step start/complete, confirm, fail, release, report unknown —
 * addressed by operationId; answers as its route would. An operation of a tenant `caller` may
 * not see answers 404 like an unknown id (default caller: every tenant, for in-process callers).
 */
export class RunWorkerCommand extends Command<HttpAnswer> {
  constructor(
    readonly operationId: string,
    readonly input: WorkerCommandInput,
    readonly ctx: RequestContext,
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
