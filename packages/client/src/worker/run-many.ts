import type { LedgerRequestError } from '../errors.js';
import { InProgressError } from '../errors.js';
import { refusesField, type WorkerApi } from '../http/worker-api.js';
import { MAX_BATCH_CLAIMS, type BatchClaimResult } from './claim-batcher.js';
import type { AcquiredClaim, ClaimRequest, OperationKey } from '../types.js';
import { acceptedFields } from './claim-loop.js';
import { executeJob } from './execute-job.js';
import type { OperationContext } from './operation-context.js';
import { claimRequestFor, runOnce } from './run-once.js';
import type { JobResult, RunOptions, RunResult } from './run-options.js';
import type { Shortcuts } from './shortcuts.js';

/** Options of `runMany`: how to key each item, and how many jobs run at once. */
export interface RunManyOptions<T> extends Omit<RunOptions, 'firstStep'> {
  readonly key: (item: T, index: number) => OperationKey;
  readonly payload: (item: T, index: number) => unknown;
  /** Jobs running at once. @defaultValue 4 */
  readonly concurrency?: number;
  /**
   * Most claims per `POST /v1/claims/batch` (≤ 500); a batch never holds more than the free
   * slots (`concurrency` minus the jobs running). @defaultValue 100
   */
  readonly chunkSize?: number;
}

/** How one item ended. */
export type ItemReport<T> =
  | { readonly index: number; readonly item: T; readonly ok: true; readonly result: RunResult }
  | { readonly index: number; readonly item: T; readonly ok: false; readonly error: unknown };

/**
 * Backfills: claims items in batches only as fast as jobs can start (no acquired lease waits in a
 * queue), runs each acquired item's job, and reports per item in input order; `in-progress`
 * items go through `runOnce`.
 */
export async function runMany<T>(
  api: WorkerApi,
  shortcuts: Shortcuts,
  items: readonly T[],
  job: (op: OperationContext, item: T) => Promise<JobResult | void> | JobResult | void,
  options: RunManyOptions<T>,
): Promise<ItemReport<T>[]> {
  const chunk = Math.min(MAX_BATCH_CLAIMS, Math.max(1, options.chunkSize ?? 100));
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const reports: ItemReport<T>[] = new Array(items.length);
  const ready: (() => Promise<void>)[] = [];
  let next = 0;
  let busy = 0;
  let claiming: Promise<void> | null = null;

  const report = (index: number, outcome: { ok: true; result: RunResult } | { ok: false; error: unknown }) =>
    (reports[index] = { index, item: items[index]!, ...outcome } as ItemReport<T>);
  const task = (index: number, fn: () => Promise<RunResult>) => async () => {
    try {
      report(index, { ok: true, result: await fn() });
    } catch (error) {
      report(index, { ok: false, error });
    }
  };

  /** Claims the next items, as many as there are free slots; queues a task per item to run. */
  const claimNext = async (): Promise<void> => {
    const room = Math.min(chunk, concurrency - busy);
    const requests: ClaimRequest[] = [];
    const indexes: number[] = [];
    while (requests.length < room && next < items.length) {
      const index = next++;
      const item = items[index]!;
      try {
        requests.push(claimRequestFor(options.key(item, index), options.payload(item, index), options));
        indexes.push(index);
      } catch (error) {
        report(index, { ok: false, error });
      }
    }
    if (requests.length === 0) return;
    const sentAt = Date.now();
    let answers: BatchClaimResult[];
    try {
      answers = await api.claimBatch(
        requests.map((r) => acceptedFields(r, shortcuts)),
        options.signal,
      );
    } catch (error) {
      for (const index of indexes) report(index, { ok: false, error });
      return;
    }
    for (const a of answers) {
      const index = indexes[a.index]!;
      const item = items[index]!;
      const request = requests[a.index]!;
      const run = (op: OperationContext) => job(op, item);
      if (a.ok && a.answer.kind === 'replayed') {
        const r = a.answer;
        report(index, {
          ok: true,
          result: { status: 'replayed', operationId: r.operationId, state: r.state, outcome: r.outcome },
        });
      } else if (a.ok) {
        if (request.claimRequestId !== undefined && shortcuts.claimRequestIds !== false)
          shortcuts.claimRequestIds = true;
        const claim = a.answer as AcquiredClaim;
        const key = request.key as Required<OperationKey>;
        ready.push(task(index, () => executeJob(api, shortcuts, claim, key, run, options, sentAt)));
      } else if (a.error instanceof InProgressError || refusesField(a.error, 'claimRequestId')) {
        // An older ledger without claimRequestId: runOnce learns it and claims without it.
        ready.push(task(index, () => runOnce(api, shortcuts, request.key, request.payload, run, options)));
      } else {
        report(index, { ok: false, error: a.error as LedgerRequestError });
      }
    }
  };

  const lane = async (): Promise<void> => {
    for (;;) {
      const work = ready.shift();
      if (work) {
        busy++;
        await work().finally(() => busy--);
      } else if (next < items.length) {
        await (claiming ??= claimNext().finally(() => (claiming = null)));
      } else if (claiming) {
        await claiming;
      } else {
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, items.length)) }, lane));
  return reports;
}
