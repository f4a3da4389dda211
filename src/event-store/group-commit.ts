import {
  deadlineClock,
  storeDeadline,
  StoreDeadlineError,
  withoutStoreDeadline,
} from '../common/store-deadline.js';

/** Limits of a {@link GroupCommit}. */
export interface GroupCommitOptions {
  /** Batches running at once (e.g. a share of the connection pool); >= 1. */
  readonly maxInFlight: number;
  /** Requests in one batch; >= 1. */
  readonly maxBatchSize: number;
}

interface Waiting<R, O> {
  readonly key: string | null;
  readonly request: R;
  resolve: (outcome: O) => void;
  reject: (error: unknown) => void;
  /** Ends the wait at the submitter's store deadline, if it has one. */
  timer?: NodeJS.Timeout;
}

/**
 * Group commit: requests that arrive while `maxInFlight` batches run wait and leave together as
 * the next batch, so under load they share one round trip and one commit, while a lone request
 * leaves at once (no timer). A batch never holds two requests with the same key (null: any batch).
 *
 * `flush` returns one outcome per request, in order; if it throws, the whole batch is rejected.
 *
 * A batch serves several requests, so it runs without any one's store deadline; a submitter past
 * its own gets {@link StoreDeadlineError}, though its running batch may still commit it.
 */
export class GroupCommit<R, O> {
  private waiting: Waiting<R, O>[] = [];
  private inFlight = 0;

  constructor(
    private readonly flush: (batch: readonly R[]) => Promise<readonly O[]>,
    private readonly options: GroupCommitOptions,
  ) {
    if (!(options.maxInFlight >= 1 && options.maxBatchSize >= 1)) {
      throw new RangeError('GroupCommit: maxInFlight and maxBatchSize must be >= 1');
    }
  }

  /** Queues `request` under `key` (null: no key); resolves with its outcome once its batch is done. */
  submit(key: string | null, request: R): Promise<O> {
    const at = storeDeadline();
    const left = at === undefined ? Infinity : at - deadlineClock();
    if (left <= 0) return Promise.reject(new StoreDeadlineError());
    return new Promise<O>((resolve, reject) => {
      const w: Waiting<R, O> = { key, request, resolve, reject };
      if (left !== Infinity) {
        w.timer = setTimeout(() => this.giveUp(w), left);
        w.resolve = (outcome) => {
          clearTimeout(w.timer);
          resolve(outcome);
        };
        w.reject = (error) => {
          clearTimeout(w.timer);
          reject(error);
        };
      }
      this.waiting.push(w);
      withoutStoreDeadline(() => this.pump());
    });
  }

  /** The submitter's deadline passed: out of the queue if still there; rejected either way. */
  private giveUp(w: Waiting<R, O>): void {
    const i = this.waiting.indexOf(w);
    if (i >= 0) this.waiting.splice(i, 1);
    w.reject(new StoreDeadlineError());
  }

  private pump(): void {
    while (this.inFlight < this.options.maxInFlight && this.waiting.length > 0) {
      const batch = this.takeBatch();
      this.inFlight++;
      void this.run(batch);
    }
  }

  /** Takes up to `maxBatchSize` waiting requests with distinct keys, oldest first. */
  private takeBatch(): Waiting<R, O>[] {
    const { maxBatchSize } = this.options;
    if (this.waiting.length <= maxBatchSize && allKeysDistinct(this.waiting)) {
      const all = this.waiting;
      this.waiting = [];
      return all;
    }
    const batch: Waiting<R, O>[] = [];
    const keys = new Set<string>();
    const rest: Waiting<R, O>[] = [];
    for (const w of this.waiting) {
      if (batch.length < maxBatchSize && (w.key === null || !keys.has(w.key))) {
        if (w.key !== null) keys.add(w.key);
        batch.push(w);
      } else {
        rest.push(w);
      }
    }
    this.waiting = rest;
    return batch;
  }

  private async run(batch: Waiting<R, O>[]): Promise<void> {
    try {
      const outcomes = await this.flush(batch.map((w) => w.request));
      batch.forEach((w, i) =>
        i < outcomes.length ? w.resolve(outcomes[i]!) : w.reject(new Error('GroupCommit: no outcome')),
      );
    } catch (error) {
      for (const w of batch) w.reject(error);
    } finally {
      this.inFlight--;
      this.pump();
    }
  }
}

function allKeysDistinct(waiting: readonly { readonly key: string | null }[]): boolean {
  if (waiting.length < 2) return true;
  const keys = waiting.flatMap((w) => (w.key === null ? [] : [w.key]));
  return new Set(keys).size === keys.length;
}
