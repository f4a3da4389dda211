import { randomBytes } from 'node:crypto';

/** An operation key as sent in a claim body (docs/api.md#operation-identity). */
export interface BenchKey {
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
}

/** A business payload shaped like an approved invoice (about 300 bytes of JSON). */
export type BenchPayload = Record<string, unknown>;

/**
 * Generates the keys and payloads of one benchmark run. Every family (`new`, `dup`, `cycle`, …)
 * and every run (random tag) gets its own subjects, so keys never collide across scenarios.
 */
export class Workload {
  private readonly counters = new Map<string, number>();

  /**
   * @param runTag Tag that makes this run's keys unique in a reused database: random, or another
   *   workload's, so that a second process (a load generator) names the same keys.
   */
  constructor(readonly runTag: string = randomBytes(4).toString('hex')) {}

  /** The `index`-th key of `family`; the same arguments give the same key. */
  key(family: string, index: number): BenchKey {
    return {
      tenant: 'bench-gmbh',
      source: 'shopify',
      action: 'invoice.create',
      subject: `order:${this.runTag}-${family}-${index}`,
    };
  }

  /** A key of `family` never handed out before by this workload. */
  freshKey(family: string): BenchKey {
    const next = this.counters.get(family) ?? 0;
    this.counters.set(family, next + 1);
    return this.key(family, next);
  }

  /** The payload approved for `key` (depends on the key only, so a repeat has the same fingerprint). */
  payload(key: BenchKey): BenchPayload {
    return {
      orderId: key.subject,
      customer: { id: 'c-1742', name: 'Muster AG', vatId: 'DE123456789' },
      currency: 'EUR',
      lines: [
        { sku: 'A-100', description: 'Widget', qty: 2, unitPrice: '19.90' },
        { sku: 'B-220', description: 'Gadget, large', qty: 1, unitPrice: '149.00' },
      ],
      total: '188.80',
      dueDate: '2026-01-31',
    };
  }
}

/** The key as one string, `tenant/source/action/subject@1`, as a hand-rolled table would store it. */
export function keyString(key: BenchKey): string {
  return `${key.tenant}/${key.source}/${key.action}/${key.subject}@1`;
}
