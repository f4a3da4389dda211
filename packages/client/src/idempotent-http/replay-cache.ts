import type { HttpAnswer } from './http-answer.js';

interface Entry {
  readonly answer: HttpAnswer;
  /** Epoch ms after which the ledger may no longer hold the record; null = kept forever. */
  readonly expiresAt: number | null;
  readonly bytes: number;
}

/**
 * Confirmed answers kept in process, by idempotency key and request fingerprint, so a replay
 * costs no round trip to the ledger. A confirmed outcome never changes, so an entry is dropped
 * only when its retention ends (`expiresAt`) or to stay within `maxEntries` / `maxBytes` (least
 * recently used first). Not shared between processes: another replica asks the ledger.
 */
export class ReplayCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  /** @param maxEntries answers kept (0 disables the cache); @param maxBytes their body bytes. */
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The answer recorded for `key`, or undefined (also once its retention ended). */
  get(key: string): HttpAnswer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= this.now()) {
      this.delete(key, entry);
      return undefined;
    }
    this.entries.delete(key); // most recently used last
    this.entries.set(key, entry);
    return entry.answer;
  }

  /** Keeps `answer` under `key` until `expiresAt` (epoch ms; null = until evicted). */
  set(key: string, answer: HttpAnswer, expiresAt: number | null): void {
    if (this.maxEntries <= 0) return;
    const bytes = (answer.body?.length ?? 0) + key.length;
    if (bytes > this.maxBytes) return;
    const old = this.entries.get(key);
    if (old) this.delete(key, old);
    this.entries.set(key, { answer, expiresAt, bytes });
    this.bytes += bytes;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(k, e);
    }
  }

  /** Answers held. */
  get size(): number {
    return this.entries.size;
  }

  private delete(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
