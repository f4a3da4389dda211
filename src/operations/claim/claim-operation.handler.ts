import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { assertTenantAccess } from '../../auth/assert-tenant-access.js';
import { decideClaim } from '../../ledger/index.js';
import { PolicyStore } from '../../policies/policy-store.js';
import { CLOCK, type Clock } from '../core/clock.js';
import { OperationStreams } from '../core/operation-stream.js';
import type { HttpAnswer } from '../http/http-answer.js';
import { ClaimOperationCommand } from './claim-operation.command.js';
import { presentClaim } from './claim-presenter.js';
import { claimUnderPolicy } from './claim-under-policy.js';
import { supersedeOlderRevisions } from './supersede-older-revisions.js';

/**
 * Claims an operation: decide against the empty stream and append with `no_stream` (a new key
 * costs one round trip); on WrongExpectedVersion the store returns the stream, and the claim is
 * re-decided on it (duplicate, conflict, in progress, reclaim) — see OperationStreams.
 * A claim naming a tenant the caller's key is not bound to is refused before anything is read or
 * written (403 `forbidden-tenant`). The action's policy sets the lease bounds, the fields left out
 * of the fingerprint and the approval gate; a claim naming `supersedes` first marks the older
 * revisions superseded.
 */
@CommandHandler(ClaimOperationCommand)
export class ClaimOperationHandler implements ICommandHandler<ClaimOperationCommand, HttpAnswer> {
  constructor(
    private readonly streams: OperationStreams,
    private readonly policies: PolicyStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ claim, ctx, caller }: ClaimOperationCommand): Promise<HttpAnswer> {
    assertTenantAccess(caller, claim.key.tenant);
    const { policy, version } = await this.policies.policyFor(claim.key.tenant, claim.key.action);
    const command = claimUnderPolicy(claim, policy, version, this.clock.now()); // 400 over the max lease
    if (claim.supersedes !== null) {
      await supersedeOlderRevisions(this.streams, claim.key, ctx, () => this.clock.now());
    }
    const decision = await this.streams.execute(
      claim.key,
      (state) => decideClaim({ ...command, now: this.clock.now() }, state),
      ctx,
      { assumeNew: true },
    );
    return presentClaim(decision, claim.operationId);
  }
}
