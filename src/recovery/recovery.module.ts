import { Module } from '@nestjs/common';
import { OperationsModule } from '../operations/operations.module.js';
import { PoliciesModule } from '../policies/policies.module.js';
import { BackgroundJobs } from './background-jobs.js';
import { LeaseSweeper } from './lease-sweeper.js';
import { PolicyFileLoader } from './policy-file-loader.js';
import { RetentionJob } from './retention-job.js';

/**
 * Background recovery work: the lease sweeper, the retention job and the start-up policy file.
 * Needs the projections module (status view, locks), operations and policies.
 */
@Module({
  imports: [OperationsModule, PoliciesModule],
  providers: [LeaseSweeper, RetentionJob, BackgroundJobs, PolicyFileLoader],
  exports: [LeaseSweeper, RetentionJob],
})
export class RecoveryModule {}
