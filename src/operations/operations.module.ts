import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { PoliciesModule } from '../policies/policies.module.js';
import { BatchClaimHandler } from './claim/batch-claim.handler.js';
import { ClaimOperationHandler } from './claim/claim-operation.handler.js';
import { ClaimService } from './claim/claim-service.js';
import { ClaimsController } from './claim/claims.controller.js';
import { AuditWriter } from './audit-writer.js';
import { DecideAndAppend } from './decide-and-append.js';
import { DuplicateAudit } from './duplicate-audit.js';
import { OperationLocator } from './operation-locator.js';
import { PolicyCommandsController } from './policy-commands/policy-commands.controller.js';
import { RunPolicyCommandHandler } from './policy-commands/run-policy-command.handler.js';
import { ResolveOperationHandler } from './resolve/resolve-operation.handler.js';
import { ResolveController } from './resolve/resolve.controller.js';
import { GetOperationHistoryHandler } from './status-and-history/get-operation-history.handler.js';
import { GetOperationStatusHandler } from './status-and-history/get-operation-status.handler.js';
import { StatusAndHistoryController } from './status-and-history/status-and-history.controller.js';
import { RunWorkerCommandHandler } from './worker-steps/run-worker-command.handler.js';
import { WorkerStepsController } from './worker-steps/worker-steps.controller.js';

/**
 * Commands, queries and routes of operations, one slice per folder (docs/architecture.md).
 * Needs EVENT_STORE, LEDGER_CONFIG and CLOCK.
 */
@Module({
  imports: [CqrsModule, PoliciesModule],
  controllers: [
    ClaimsController,
    WorkerStepsController,
    ResolveController,
    StatusAndHistoryController,
    PolicyCommandsController,
  ],
  providers: [
    AuditWriter,
    DuplicateAudit,
    OperationLocator,
    DecideAndAppend,
    ClaimService,
    ClaimOperationHandler,
    BatchClaimHandler,
    RunWorkerCommandHandler,
    ResolveOperationHandler,
    GetOperationStatusHandler,
    GetOperationHistoryHandler,
    RunPolicyCommandHandler,
  ],
  exports: [DecideAndAppend, OperationLocator],
})
export class OperationsModule {}
