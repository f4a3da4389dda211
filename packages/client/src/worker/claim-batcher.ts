import { LedgerRequestError } from '../errors.js';
import type { ClaimAnswer, ClaimRequest } from '../types.js';

/** One slot of a batch claim: the answer, or the refusal as a typed error. */
export type BatchClaimResult =
  | { readonly index: number; readonly ok: true; readonly answer: ClaimAnswer }
  | { readonly index: number; readonly ok: false; readonly error: LedgerRequestError };

/** Most claims in one `POST /v1/claims/batch`. */
export const MAX_BATCH_CLAIMS = 500;

/** The two claim routes the batcher sends on. */
export interface ClaimRoutes {
  /** `POST /v1/claims` (with the transport's retries). */
  claimOne(request: ClaimRequest, signal?: AbortSignal): Promise<ClaimAnswer>;
  /** `POST /v1/claims/batch`: one result per item, in input order. */
  claimBatch(claims: readonly ClaimRequest[]): Promise<BatchClaimResult[]>;
  /** False when the ledger is known not to take batches; `undefined` when not known (try). */
  batchAccepted?(): boolean | undefined;
}

interface Waiting {
  readonly request: ClaimRequest;
  readonly signal: AbortSignal | undefined;
  settled: boolean;
  resolve(answer: ClaimAnswer): void;
  reject(error: unknown): void;
  onAbort(): void;
}

/**
 * Opportunistic batching of one process's claims (Nagle's algorithm, RFC 896): a claim leaves at
 * once when none is in flight; claims made meanwhile leave together as one batch (docs/api.md
 * "Claims"), each caller getting its own answer. A slot or batch the ledger could not take is
 * sent again alone.
 */
export class ClaimBatcher {
  private busy = false;
  private readonly queue: Waiting[] = [];

  constructor(private readonly routes: ClaimRoutes) {}

  /** Claims `request`; see the class comment for when it leaves and on which route. */
  claim(request: ClaimRequest, signal?: AbortSignal): Promise<ClaimAnswer> {
    if (!this.busy) {
      this.busy = true;
      const sent = this.routes.claimOne(request, signal);
      void sent.then(this.next, this.next);
      return sent;
    }
    signal?.throwIfAborted();
    return new Promise<ClaimAnswer>((resolve, reject) => {
      const w: Waiting = {
        request,
        signal,
        settled: false,
        resolve: (a) => settle(w, () => resolve(a)),
        reject: (e) => settle(w, () => reject(e)),
        onAbort: () => {
          const at = this.queue.indexOf(w);
          if (at >= 0) this.queue.splice(at, 1);
          w.reject(signal!.reason);
        },
      };
      signal?.addEventListener('abort', w.onAbort, { once: true });
      this.queue.push(w);
    });
  }

  /** Sends what waited, or goes idle. */
  private readonly next = (): void => {
    const group = this.queue.splice(0, MAX_BATCH_CLAIMS);
    if (group.length === 0) {
      this.busy = false;
      return;
    }
    const sent =
      group.length === 1
        ? this.sendOne(group[0]!)
        : this.routes.batchAccepted?.() === false
          ? Promise.all(group.map((w) => this.sendOne(w)))
          : this.sendBatch(group);
    void sent.then(this.next);
  };

  private async sendOne(w: Waiting): Promise<void> {
    try {
      w.resolve(await this.routes.claimOne(w.request, w.signal));
    } catch (err) {
      w.reject(err);
    }
  }

  private async sendBatch(group: readonly Waiting[]): Promise<void> {
    let results: BatchClaimResult[];
    try {
      results = await this.routes.claimBatch(group.map((w) => w.request));
    } catch (err) {
      if (!(err instanceof LedgerRequestError)) {
        for (const w of group) w.reject(err);
        return;
      }
      await Promise.all(group.map((w) => this.sendOne(w)));
      return;
    }
    const answered = new Set<Waiting>();
    for (const r of results) {
      const w = group[r.index];
      if (!w || (!r.ok && r.error.status === 503)) continue;
      answered.add(w);
      if (r.ok) w.resolve(r.answer);
      else w.reject(r.error);
    }
    // undecided slots (503), and any the answer left out, go again alone
    await Promise.all(group.filter((w) => !answered.has(w)).map((w) => this.sendOne(w)));
  }
}

function settle(w: Waiting, done: () => void): void {
  if (w.settled) return;
  w.settled = true;
  w.signal?.removeEventListener('abort', w.onAbort);
  done();
}
