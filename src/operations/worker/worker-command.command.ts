import { Command } from '@nestjs/cqrs';
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
 * addressed by operationId; answers as its route would.
 */
export class RunWorkerCommand extends Command<HttpAnswer> {
  constructor(
    readonly operationId: string,
    readonly input: WorkerCommandInput,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}
