/**
 * A map bounded by its number of entries and by the bytes its entries say they take, dropping the
 * least recently used first (a `Map` keeps insertion order, so a read moves the entry to the end).
 * An entry larger than `maxEntryBytes` is not kept at all, and `maxEntries` 0 keeps nothing. The
 * server's held event streams and the SDK's replayed answers both use it; what an entry's bytes
 * count (heap estimate, body length) is the caller's.
 */
export class BoundedLru<V> {
  readonly #entries = new Map<string, { readonly value: V; readonly bytes: number }>();
  #bytes = 0;

  /**
   * @param maxEntries entries kept at most.
   * @param maxBytes their bytes at most, as the callers of {@link set} count them.
   * @param maxEntryBytes one entry's bytes at most (default `maxBytes`).
   */
  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
    private readonly maxEntryBytes: number = maxBytes,
  ) {}

  /** The value under `key`, marked most recently used; undefined when not held. */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** The value under `key` without marking it used. */
  peek(key: string): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /**
   * Holds `value` under `key` in place of what was there, then drops the least recently used
   * entries until both bounds hold. Returns whether it was kept (false when over `maxEntryBytes`,
   * or `maxEntries` is 0; what was under `key` is dropped either way).
   */
  set(key: string, value: V, bytes: number): boolean {
    this.delete(key);
    if (this.maxEntries <= 0 || bytes > this.maxEntryBytes) return false;
    this.#entries.set(key, { value, bytes });
    this.#bytes += bytes;
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
    return this.#entries.has(key);
  }

  /** Drops the entry under `key`, if any. */
  delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
  }

  /** Entries held now. */
  get size(): number {
    return this.#entries.size;
  }

  /** Their bytes, as counted by the callers of {@link set}. */
  get bytes(): number {
    return this.#bytes;
  }
}
