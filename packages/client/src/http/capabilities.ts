import type { LedgerCapability } from '@operation-ledger/protocol';
import { LedgerRequestError } from '../errors.js';
import type { Transport } from './transport.js';

/**
 * A feature a ledger may list in `GET /health`'s `capabilities` (the protocol's
 * `LEDGER_CAPABILITIES`). Any other string is accepted too: a newer ledger may list features
 * this SDK does not know.
 */
export type LedgerFeature = LedgerCapability | (string & {});

/** How long a worker run waits for the ledger's capabilities by default (ms). */
export const DEFAULT_CAPABILITIES_WAIT_MS = 2_000;

/**
 * What the ledger says it supports, asked once per client on first use (one `GET /health`), as
 * the EventStoreDB client's `supports(…)`; asked again only when the ledger could not answer.
 * Without a `capabilities` field, {@link features} is `null` and the worker learns the shortcuts
 * from 400 answers.
 */
export class Capabilities {
  private known: Promise<ReadonlySet<string> | null> | null = null;
  private listed: ReadonlySet<string> | null = null;
  /** The ask a run already stopped waiting for: later runs go on without waiting for it. */
  private waitedOut: Promise<ReadonlySet<string> | null> | null = null;

  /** @param waitMs how long {@link forRun} waits for an unanswered ask (ms). */
  constructor(
    private readonly transport: Transport,
    private readonly waitMs = DEFAULT_CAPABILITIES_WAIT_MS,
  ) {}

  /** The features the ledger lists, or null when it lists none or could not be asked. */
  features(): Promise<ReadonlySet<string> | null> {
    this.known ??= this.ask();
    return this.known;
  }

  /**
   * Without waiting: true or false once the ledger's list is known, `undefined` before (or when
   * the ledger has no list).
   */
  listedNow(feature: LedgerFeature): boolean | undefined {
    return this.listed ? this.listed.has(feature) : undefined;
  }

  /**
   * The features for a worker run: the list once known; else waits for the ask at most `waitMs`
   * (once per ask: a hanging `/health` delays one run, not every run) and answers `null` (learn
   * from 400s) when it does not come in time. `signal` ends the wait sooner.
   * @throws the signal's reason when it aborts first.
   */
  async forRun(signal: AbortSignal | undefined): Promise<ReadonlySet<string> | null> {
    if (this.listed) return this.listed;
    const asked = this.features();
    if (asked === this.waitedOut) return null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const gaveUp = Symbol('gave up');
    try {
      const answer = await Promise.race([
        asked,
        new Promise<typeof gaveUp>((resolve) => (timer = setTimeout(() => resolve(gaveUp), this.waitMs))),
        new Promise<never>((_, reject) => {
          onAbort = () => reject(signal!.reason);
          signal?.addEventListener('abort', onAbort, { once: true });
        }),
      ]);
      if (answer !== gaveUp) return answer;
      this.waitedOut = asked;
      return null;
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  /** True when the ledger lists `feature` in its `/health` answer. */
  async supports(feature: LedgerFeature): Promise<boolean> {
    return (await this.features())?.has(feature) ?? false;
  }

  private async ask(): Promise<ReadonlySet<string> | null> {
    try {
      const { body } = await this.transport.request<{ capabilities?: unknown }>('GET', '/health', {
        once: true,
      });
      const list = body?.capabilities;
      if (!Array.isArray(list)) return null;
      this.listed = new Set(list.filter((f): f is string => typeof f === 'string'));
      return this.listed;
    } catch (err) {
      // The ledger answered but without a list (4xx): keep that. Unreachable or 5xx: ask next time.
      if (!(err instanceof LedgerRequestError) || err.status >= 500) this.known = null;
      return null;
    }
  }
}
