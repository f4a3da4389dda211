import { Command } from '@nestjs/cqrs';
import type { ResolveOperation } from '../../ledger/index.js';
import type { RequestContext } from '../core/event-metadata.js';
import type { HttpAnswer } from '../http/http-answer.js';

/** An operator resolves an Unknown operation (confirmed / not_found / abandoned). */
export class ResolveOperationCommand extends Command<HttpAnswer> {
  constructor(
    readonly operationId: string,
    readonly input: Omit<ResolveOperation, 'now'>,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}
