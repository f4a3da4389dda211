import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { problemForError } from '../../common/error-problem.js';
import { canonicalKey, type CheckedClaim } from '../../ledger/index.js';
import { BatchClaimCommand } from './batch-claim.command.js';
import type { BatchItemOutcome } from './claim-outcome.js';
import { claimRequestOf, validateClaimBody } from './claim-request.dto.js';
import { ClaimService } from './claim-service.js';

/** Distinct keys claimed at once within one batch. */
const BATCH_PARALLELISM = 16;

/**
 * Decides each item of a batch exactly as a single claim. Items of one subject run in turn, newest
 * revision first, so an amendment supersedes older revisions of the same batch whatever their
 * order; subjects run in parallel. Outcomes are in input order.
 */
@CommandHandler(BatchClaimCommand)
export class BatchClaimHandler implements ICommandHandler<BatchClaimCommand, BatchItemOutcome[]> {
  constructor(private readonly claims: ClaimService) {}

  async execute({ items, ctx, caller }: BatchClaimCommand): Promise<BatchItemOutcome[]> {
    const outcomes: BatchItemOutcome[] = new Array(items.length);
    const groups = new Map<string, { index: number; claim: CheckedClaim }[]>();
    items.forEach((item, index) => {
      const dto = validateClaimBody(item);
      const checked = dto.ok ? this.claims.check(claimRequestOf(dto.value)) : dto;
      if (!checked.ok) {
        outcomes[index] = checked.rejection;
        return;
      }
      const k = canonicalKey({ ...checked.value.key, revision: 1 });
      const group = groups.get(k) ?? [];
      group.push({ index, claim: checked.value });
      groups.set(k, group);
    });
    // stable: repeats of one key keep input order
    const queue = [...groups.values()].map((g) =>
      g.sort((a, b) => b.claim.key.revision - a.claim.key.revision),
    );
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        for (const { index, claim } of group) {
          try {
            outcomes[index] = await this.claims.claim(claim, ctx, caller);
          } catch (err) {
            if (!problemForError(err)) throw err; // a bug is not one slot's 500
            outcomes[index] = { kind: 'failed', error: err };
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_PARALLELISM, queue.length) }, worker));
    return outcomes;
  }
}
