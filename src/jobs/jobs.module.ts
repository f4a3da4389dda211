import { Module } from '@nestjs/common';
import { OperationsModule } from '../operations/operations.module.js';
import { PoliciesModule } from '../policies/policies.module.js';
import { BackgroundJobs } from './background-jobs.js';
import { LeaseSweeper } from './lease-sweeper.js';
import { RetentionJob } from './retention-job.js';

/**
 * Background jobs: the lease sweeper and the retention job, one active across replicas.
 * Needs the projections module (status view, locks), operations and policies.
 */
@Module({
  imports: [OperationsModule, PoliciesModule],
  providers: [LeaseSweeper, RetentionJob, BackgroundJobs],
  exports: [LeaseSweeper, RetentionJob],
})
export class JobsModule {}
