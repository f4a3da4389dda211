import { LRUCache } from 'lru-cache';
import type { HttpAnswer } from './http-answer.js';

interface Entry {
  readonly answer: HttpAnswer;
  /** Epoch ms after which the ledger may no longer hold the record; null = kept forever. */
  readonly expiresAt: number | null;
}

/**
 * Confirmed answers kept in process, by idempotency key and request fingerprint, so a replay
 * costs no round trip to the ledger. A confirmed outcome never changes, so an entry is dropped
 * only when its retention ends (`expiresAt`) or to stay within `maxEntries` / `maxBytes` (least
 * recently used first). Not shared between processes: another replica asks the ledger.
 */
export class ReplayCache {
  private readonly entries: LRUCache<string, Entry> | null;

  /** @param maxEntries answers kept (0 disables the cache); @param maxBytes their body bytes. */
  constructor(
    maxEntries: number,
    maxBytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.entries =
      maxEntries > 0 ? new LRUCache({ max: maxEntries, maxSize: Math.max(1, Math.floor(maxBytes)) }) : null;
  }

  /** The answer recorded for `key`, or undefined (also once its retention ended). */
  get(key: string): HttpAnswer | undefined {
    const entry = this.entries?.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && entry.expiresAt <= this.now()) {
      this.entries?.delete(key);
      return undefined;
    }
    return entry.answer;
  }

  /** Keeps `answer` under `key` until `expiresAt` (epoch ms; null = until evicted). */
  set(key: string, answer: HttpAnswer, expiresAt: number | null): void {
    // the size counted is the body's and the key's bytes (at least 1: lru-cache's sizes are positive)
    this.entries?.set(
      key,
      { answer, expiresAt },
      { size: Math.max(1, (answer.body?.length ?? 0) + key.length) },
    );
  }

  /** Answers held. */
  get size(): number {
    return this.entries?.size ?? 0;
  }
}
