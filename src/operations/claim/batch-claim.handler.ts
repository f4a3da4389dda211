import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { LEDGER_CONFIG } from '../../config/config.token.js';
import type { LedgerConfig } from '../../config/ledger-config.js';
import { canonicalKey } from '../../ledger/index.js';
import { answerForError, type HttpAnswer } from '../http/http-answer.js';
import { BatchClaimCommand, type BatchSlot } from './batch-claim.command.js';
import { prepareClaim, validateClaimBody, type PreparedClaim } from './claim-input.js';
import { ClaimOperationCommand } from './claim-operation.command.js';

/** Distinct keys claimed at once within one batch. */
const BATCH_PARALLELISM = 16;

/**
 * Answers each item of a batch exactly as a single claim: invalid items get their own 400/413,
 * valid ones are never dropped because of another. Items of one subject run one after another —
 * newest revision first, then input order for repeats of one key (the second sees the first's
 * claim) — so an amendment in a batch supersedes older revisions in the same batch whatever their
 * order; different subjects run in parallel. Answers are always in input order.
 */
@CommandHandler(BatchClaimCommand)
export class BatchClaimHandler implements ICommandHandler<BatchClaimCommand, BatchSlot[]> {
  constructor(
    private readonly commandBus: CommandBus,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
  ) {}

  async execute({ items, ctx, caller }: BatchClaimCommand): Promise<BatchSlot[]> {
    const answers: HttpAnswer[] = new Array(items.length);
    const groups = new Map<string, { index: number; claim: PreparedClaim }[]>();
    items.forEach((item, index) => {
      try {
        const claim = prepareClaim(validateClaimBody(item), this.config);
        // One group per subject (all revisions): see the class comment.
        const k = canonicalKey({ ...claim.key, revision: 1 });
        const group = groups.get(k) ?? [];
        group.push({ index, claim });
        groups.set(k, group);
      } catch (err) {
        answers[index] = answerForError(err);
      }
    });
    // Newest revision first (stable, so repeats of one key keep input order): an older revision in
    // the same batch then finds itself superseded, whatever order the items came in.
    const queue = [...groups.values()].map((g) =>
      g.sort((a, b) => b.claim.key.revision - a.claim.key.revision),
    );
    const worker = async () => {
      for (let group = queue.shift(); group; group = queue.shift()) {
        for (const { index, claim } of group) {
          try {
            answers[index] = await this.commandBus.execute(new ClaimOperationCommand(claim, ctx, caller));
          } catch (err) {
            answers[index] = answerForError(err);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_PARALLELISM, queue.length) }, worker));
    return answers.map((a, index) => ({ index, status: a.status, body: a.body }));
  }
}
