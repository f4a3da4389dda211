import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../auth/caller.js';
import type { ActionPolicy, LedgerCommand } from '../../ledger/index.js';
import type { RequestContext } from '../core/event-metadata.js';
import type { HttpAnswer } from '../http/http-answer.js';

/** Builds the domain command once the operation's policy and the server time are known. */
export type CommandBuilder = (policy: ActionPolicy, now: number) => LedgerCommand;

/**
 * A command on one operation addressed by id — operator actions, recovery evidence, lease
 * renewal — decided under the action's policy; answered 200 with the state it led to.
 */
export class RunOperationCommand extends Command<HttpAnswer> {
  constructor(
    readonly operationId: string,
    readonly build: CommandBuilder,
    readonly caller: Caller,
    readonly ctx: RequestContext,
  ) {
    super();
  }
}
