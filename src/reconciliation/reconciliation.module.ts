import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { SqlExecutor } from '../event-store/sql-executor.js';
import { SQL_EXECUTOR } from '../event-store/sql-executor.token.js';
import { OperationsModule } from '../operations/operations.module.js';
import { ReconciliationReportsController } from './http/reconciliation-reports.controller.js';
import { ReconciliationsController } from './http/reconciliations.controller.js';
import { ReconciliationRunner } from './job/reconciliation-runner.js';
import { LedgerWrites } from './ledger-writes.js';
import { ReconciliationService } from './reconciliation.service.js';
import { installReconciliationSchema } from './sql/reconciliation-schema.js';

/**
 * Reconciliation against the destination's and the source's own records (docs/reconciliation.md):
 * uploads, the background runner, reports; its tables are installed on start.
 */
@Module({
  imports: [CqrsModule, OperationsModule],
  controllers: [ReconciliationsController, ReconciliationReportsController],
  providers: [LedgerWrites, ReconciliationRunner, ReconciliationService],
})
export class ReconciliationModule implements OnModuleInit {
  constructor(@Inject(SQL_EXECUTOR) private readonly sql: SqlExecutor) {}

  async onModuleInit(): Promise<void> {
    await installReconciliationSchema(this.sql);
  }
}
