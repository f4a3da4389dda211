import type { LedgerCapability } from '@operation-ledger/protocol';
import { LedgerRequestError } from '../errors.js';
import type { Transport } from './transport.js';

/**
 * A feature a ledger may list in `GET /health`'s `capabilities` (the protocol's
 * `LEDGER_CAPABILITIES`). Any other string is accepted too: a newer ledger may list features
 * this SDK does not know.
 */
export type LedgerFeature = LedgerCapability | (string & {});

/**
 * What the ledger says it supports, asked once per client (the EventStoreDB client's
 * `supports(…)` idea, https://developers.eventstore.com/clients/grpc/): one `GET /health`, one
 * attempt, on first use. The answer is kept for the client's life when the ledger answered
 * (200, or a 4xx); when it could not (unreachable, 5xx) the next call asks again.
 * A ledger whose answer has no `capabilities` field predates the list: {@link features} is then
 * `null`, {@link supports} is false for every feature, and the worker learns the shortcuts from
 * the ledger's 400 answers as it always did.
 */
export class Capabilities {
  private known: Promise<ReadonlySet<string> | null> | null = null;
  private listed: ReadonlySet<string> | null = null;

  constructor(private readonly transport: Transport) {}

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
