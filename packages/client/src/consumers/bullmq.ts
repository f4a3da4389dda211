/**
 * BullMQ adapter (`@operation-ledger/client/bullmq`; `bullmq` is an optional peer dependency):
 * a processor that runs each job through `runOnce`. See docs/consumers-bullmq.md.
 */
import { DelayedError, UnrecoverableError, type Job, type Processor, type Queue } from 'bullmq';
import type { UnknownOperation } from '../recovery/recover.js';
import { settleDelivery, type ConsumerOptions } from './message-runner.js';
import type { AckedOutcome } from './verdict.js';

/** What the processor returns for an acked job (BullMQ stores it as the job's return value). */
export interface LedgerJobReturn {
  readonly outcome: AckedOutcome;
  readonly operationId: string | null;
}

/**
 * A BullMQ processor (`new Worker(queue, ledgerProcessor({...}), opts)`). Per verdict:
 * - ack → returns {@link LedgerJobReturn} (the job completes);
 * - retry / delay → `job.moveToDelayed(now + delayMs)` and `DelayedError`: the job waits in
 *   the delayed set and runs again, without spending its `attempts` (a transient error never
 *   fails it for good);
 * - reject → `UnrecoverableError` (the job fails, not retried).
 * Default key subject: `job.id`; default payload: `job.data`. A processor killed mid-job leaves
 * the job *stalled*: BullMQ moves it back to wait — give the Worker a `maxStalledCount` that
 * covers your crash rate (BullMQ's default of 1 fails a job that stalls twice).
 */
export function ledgerProcessor(options: ConsumerOptions<Job>): Processor {
  return async (job: Job, token?: string) => {
    const verdict = await settleDelivery(options, {
      message: job,
      brokerId: job.id,
      body: () => job.data as unknown,
      deliveries: Math.max(1, job.attemptsStarted ?? job.attemptsMade + 1),
    });
    switch (verdict.action) {
      case 'ack':
        return {
          outcome: verdict.outcome,
          operationId: verdict.operationId ?? null,
        } satisfies LedgerJobReturn;
      case 'reject':
        throw new UnrecoverableError(verdict.reason);
      default:
        await job.moveToDelayed(Date.now() + verdict.delayMs, token);
        throw new DelayedError(verdict.reason);
    }
  };
}

/**
 * `onReleased` for `client.recover`: puts a released operation back on `queue` as job `name`
 * with the key's subject as job id and the recorded payload as data (the default key and
 * payload). The acked job of that id is removed first (BullMQ ignores an add whose id exists).
 * @throws BullMQ's error when the old job is locked (a worker holds it: it runs it anyway).
 */
export function requeueReleased(queue: Queue, name: string) {
  return async (op: UnknownOperation): Promise<void> => {
    await queue.remove(op.key.subject);
    await queue.add(name, op.payload, { jobId: op.key.subject });
  };
}
