import { Inject, Injectable } from '@nestjs/common';
import { canAccessTenant, type Caller } from '../../auth/caller.js';
import { CLOCK, type Clock } from '../../common/clock.js';
import { LEDGER_CONFIG } from '../../config/config.token.js';
import type { LedgerConfig } from '../../config/ledger-config.js';
import {
  checkClaimRequest,
  claimUnderPolicy,
  decideClaim,
  decideSupersede,
  supersessionCommands,
  type CheckedClaim,
  type Checked,
  type ClaimRequest,
  type OperationKey,
} from '../../ledger/index.js';
import { PolicyStore } from '../../policies/policy-store.js';
import type { ClaimOutcome } from './claim-outcome.js';
import { DecideAndAppend } from '../decide-and-append.js';
import { OperationLocator } from '../operation-locator.js';
import type { RequestContext } from '../request-context.js';

/** Older revisions an amendment marks at once (each is one read and at most one append). */
const SUPERSEDE_PARALLELISM = 16;

/**
 * Claims an operation: loads the action's policy and appends what the domain decides
 * ({@link claimUnderPolicy}, `decideClaim`), assuming a new key (see {@link DecideAndAppend}).
 * Shared by the single claim and the batch.
 */
@Injectable()
export class ClaimService {
  constructor(
    private readonly loop: DecideAndAppend,
    private readonly policies: PolicyStore,
    private readonly locator: OperationLocator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  /** The domain's checks of a claim before its policy is known (key, payload size, supersedes, startStep). */
  check(request: ClaimRequest): Checked<CheckedClaim> {
    return checkClaimRequest(request, { maxPayloadBytes: this.config.maxPayloadBytes });
  }

  /**
   * Claims `claim` for `caller` (`forbidden-tenant` before anything is read); a claim naming
   * `supersedes` first marks the older revisions superseded.
   * @throws EventStoreUnavailableError; ContentionError (too many concurrent writers).
   */
  async claim(claim: CheckedClaim, ctx: RequestContext, caller: Caller): Promise<ClaimOutcome> {
    if (!canAccessTenant(caller, claim.key.tenant))
      return { kind: 'forbidden-tenant', tenant: claim.key.tenant };
    const now = this.clock.now();
    const { policy, version } = await this.policies.policyFor(claim.key.tenant, claim.key.action);
    const command = claimUnderPolicy(claim, policy, version, now);
    if (!command.ok) return command.rejection;
    if (claim.supersedes !== null) await this.supersedeOlderRevisions(claim.key, ctx, now);
    const executed = await this.loop.run(claim.key, (state) => decideClaim(command.value, state), ctx, {
      assumeNew: true,
    });
    // The stream exists now: the worker's follow-ups name it by this id.
    if (executed.revision !== null) this.locator.remember(claim.operationId, claim.key);
    return { ...executed, operationId: claim.operationId };
  }

  /**
   * Marks revisions 1..r-1 superseded (`supersessionCommands`) before revision r is claimed, so a
   * retry after a crash in between marks them again. `now`: epoch ms.
   * @throws EventStoreUnavailableError; ContentionError.
   */
  private async supersedeOlderRevisions(key: OperationKey, ctx: RequestContext, now: number): Promise<void> {
    const commands = supersessionCommands(key, now);
    for (let i = 0; i < commands.length; i += SUPERSEDE_PARALLELISM) {
      await Promise.all(
        commands
          .slice(i, i + SUPERSEDE_PARALLELISM)
          .map((cmd) => this.loop.run(cmd.key, (state) => decideSupersede(cmd, state), ctx)),
      );
    }
  }
}
