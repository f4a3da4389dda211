import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { BatchClaimHandler } from './claims/batch-claim.handler.js';
import { ClaimOperationHandler } from './claims/claim-operation.handler.js';
import { ClaimsController } from './claims/claims.controller.js';
import { AuditWriter } from './core/audit-writer.js';
import { OperationLocator } from './core/operation-locator.js';
import { OperationStreams } from './core/operation-stream.js';
import { OperatorController } from './operator/operations-read.controller.js';
import { ResolveOperationHandler } from './operator/resolve-operation.handler.js';
import { GetOperationHistoryHandler } from './queries/get-operation-history.handler.js';
import { GetOperationStatusHandler } from './queries/get-operation-status.handler.js';
import { RunWorkerCommandHandler } from './worker/run-worker-command.handler.js';
import { WorkerController } from './worker/worker.controller.js';
import { RunOperationCommandHandler } from './workflows/run-operation-command.handler.js';
import { WorkflowsController } from './workflows/workflows.controller.js';
import { PoliciesModule } from '../policies/policies.module.js';

/** Commands, queries and routes of operations. Needs EVENT_STORE, LEDGER_CONFIG and CLOCK. */
@Module({
  imports: [CqrsModule, PoliciesModule],
  controllers: [ClaimsController, WorkerController, OperatorController, WorkflowsController],
  providers: [
    AuditWriter,
    OperationLocator,
    OperationStreams,
    ClaimOperationHandler,
    BatchClaimHandler,
    RunWorkerCommandHandler,
    ResolveOperationHandler,
    GetOperationStatusHandler,
    GetOperationHistoryHandler,
    RunOperationCommandHandler,
  ],
  exports: [OperationStreams, OperationLocator],
})
export class OperationsModule {}
