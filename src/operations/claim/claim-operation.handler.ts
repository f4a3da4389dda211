import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ClaimOutcome } from './claim-outcome.js';
import { ClaimOperationCommand } from './claim-operation.command.js';
import { ClaimService } from './claim-service.js';

/** Checks the claim (the domain's rules), then claims it: see {@link ClaimService}. */
@CommandHandler(ClaimOperationCommand)
export class ClaimOperationHandler implements ICommandHandler<ClaimOperationCommand, ClaimOutcome> {
  constructor(private readonly claims: ClaimService) {}

  async execute({ request, ctx, caller }: ClaimOperationCommand): Promise<ClaimOutcome> {
    const checked = this.claims.check(request);
    if (!checked.ok) return checked.rejection;
    return this.claims.claim(checked.value, ctx, caller);
  }
}
