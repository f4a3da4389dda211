import type { LedgerRequestError } from '../errors.js';
import { InProgressError } from '../errors.js';
import { MAX_BATCH_CLAIMS, type LedgerApi } from '../http/worker-api.js';
import type { AcquiredClaim, OperationKey } from '../types.js';
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
  /** Claims per `POST /v1/claims/batch` (≤ 500). @defaultValue 100 */
  readonly chunkSize?: number;
}

/** How one item ended. */
export type ItemReport<T> =
  | { readonly index: number; readonly item: T; readonly ok: true; readonly result: RunResult }
  | { readonly index: number; readonly item: T; readonly ok: false; readonly error: unknown };

/**
 * Backfills: claims the items in chunks through `POST /v1/claims/batch`, runs the job of every
 * acquired item (at most `concurrency` at once, leases renewed), and reports per item in input
 * order. Replays are reported without running; items answered `in-progress` go through
 * `runOnce` (which waits when `waitIfInProgress` is set); other refusals are the item's error.
 */
export async function runMany<T>(
  api: LedgerApi,
  shortcuts: Shortcuts,
  items: readonly T[],
  job: (op: OperationContext, item: T) => Promise<JobResult | void> | JobResult | void,
  options: RunManyOptions<T>,
): Promise<ItemReport<T>[]> {
  const chunk = Math.min(MAX_BATCH_CLAIMS, Math.max(1, options.chunkSize ?? 100));
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const reports: ItemReport<T>[] = new Array(items.length);
  for (let start = 0; start < items.length; start += chunk) {
    const slice = items.slice(start, start + chunk);
    const requests: ReturnType<typeof claimRequestFor>[] = [];
    const valid: number[] = [];
    slice.forEach((item, i) => {
      const index = start + i;
      try {
        requests.push(claimRequestFor(options.key(item, index), options.payload(item, index), options));
        valid.push(index);
      } catch (error) {
        reports[index] = { index, item, ok: false, error };
      }
    });
    if (requests.length === 0) continue;
    const answers = await api.claimBatch(requests, options.signal);
    const work: (() => Promise<void>)[] = [];
    for (const a of answers) {
      const index = valid[a.index]!;
      const item = items[index]!;
      const request = requests[a.index]!;
      const run = (fn: () => Promise<RunResult>) => async () => {
        try {
          reports[index] = { index, item, ok: true, result: await fn() };
        } catch (error) {
          reports[index] = { index, item, ok: false, error };
        }
      };
      if (a.ok && a.answer.kind === 'replayed') {
        const r = a.answer;
        reports[index] = {
          index,
          item,
          ok: true,
          result: { status: 'replayed', operationId: r.operationId, state: r.state, outcome: r.outcome },
        };
      } else if (a.ok) {
        const claim = a.answer as AcquiredClaim;
        const key = request.key as Required<OperationKey>;
        work.push(run(() => executeJob(api, shortcuts, claim, key, (op) => job(op, item), options)));
      } else if (a.error instanceof InProgressError) {
        work.push(
          run(() => runOnce(api, shortcuts, request.key, request.payload, (op) => job(op, item), options)),
        );
      } else {
        reports[index] = { index, item, ok: false, error: a.error as LedgerRequestError };
      }
    }
    await pool(work, concurrency);
  }
  return reports;
}

/** Runs the tasks, at most `concurrency` at once (tasks never reject: they record their error). */
async function pool(tasks: readonly (() => Promise<void>)[], concurrency: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) await tasks[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, lane));
}
