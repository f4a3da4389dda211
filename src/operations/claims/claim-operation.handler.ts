import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { assertTenantAccess } from '../../auth/assert-tenant-access.js';
import { decideClaim } from '../../ledger/index.js';
import { CLOCK, type Clock } from '../core/clock.js';
import { OperationStreams } from '../core/operation-stream.js';
import type { HttpAnswer } from '../http/http-answer.js';
import { ClaimOperationCommand } from './claim-operation.command.js';
import { presentClaim } from './claim-presenter.js';

/**
 * Claims an operation: decide against the empty stream and append with `no_stream` (a new key
 * costs one round trip); on WrongExpectedVersion the store returns the stream, and the claim is
 * re-decided on it (duplicate, conflict, in progress, reclaim) — see OperationStreams.
 * A claim naming a tenant the caller's key is not bound to is refused before anything is read or
 * written (403 `forbidden-tenant`).
 */
@CommandHandler(ClaimOperationCommand)
export class ClaimOperationHandler implements ICommandHandler<ClaimOperationCommand, HttpAnswer> {
  constructor(
    private readonly streams: OperationStreams,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ claim, ctx, caller }: ClaimOperationCommand): Promise<HttpAnswer> {
    assertTenantAccess(caller, claim.key.tenant);
    const decision = await this.streams.execute(
      claim.key,
      (state) => decideClaim({ ...claim, now: this.clock.now() }, state),
      ctx,
      { assumeNew: true },
    );
    return presentClaim(decision, claim.operationId);
  }
}
