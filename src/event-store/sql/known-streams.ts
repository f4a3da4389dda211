import { LRUCache } from 'lru-cache';
import type { RecordedEvent } from '../event-store.port.js';

/** A stream as this process last saw it whole. */
export interface KnownStream {
  /** Revision of its last event. */
  readonly revision: bigint;
  /** Stream position of its first stored event (moves when retention truncates), or null. */
  readonly first: bigint | null;
  /** Its events, in order, deeply frozen (they are shared by every refusal that reuses them). */
  readonly events: readonly RecordedEvent[];
  /** Approximate heap size of the events, bytes (see {@link heapBytesOf}). */
  readonly bytes: number;
}

/**
 * The streams this process recently saw whole, with their events (`EventStore.peek`). A refusal of
 * a held stream skips sending its events again, and a follow-up is decided without a read: its
 * append's expected revision proves the copy current. Every copy is the stream exactly as it was
 * at some moment — never a mix — because stored events never change and a copy only grows by an
 * append that expected its revision. LRU-bounded by `capacity` and `maxBytes`; a stream larger
 * than `maxBytes / 16` is not held.
 */
export class KnownStreams {
  readonly #streams: LRUCache<string, KnownStream> | null;

  /** @param capacity streams held at most (0 holds none); @param maxBytes their estimated heap. */
  constructor(capacity: number, maxBytes: number) {
    const bytes = Math.max(1, Math.floor(maxBytes));
    this.#streams =
      capacity > 0
        ? new LRUCache({ max: capacity, maxSize: bytes, maxEntrySize: Math.max(1, Math.floor(bytes / 16)) })
        : null;
  }

  /** The stream as held, marking it recently used; undefined when not held. */
  get(streamName: string): KnownStream | undefined {
    return this.#streams?.get(streamName);
  }

  /** Holds `events` (frozen here) as the whole stream at `revision`. */
  remember(streamName: string, revision: bigint, first: bigint | null, events: RecordedEvent[]): KnownStream {
    const bytes = heapBytesOf(events);
    const known: KnownStream = { revision, first, events: deepFreeze(events), bytes };
    this.#streams?.set(streamName, known, { size: bytes });
    return known;
  }

  /** After a successful append at `expected`: a copy held at `expected` grows, any other is stale. */
  extend(streamName: string, expected: bigint, events: RecordedEvent[]): void {
    const known = this.#streams?.peek(streamName);
    if (!known) return;
    if (known.revision !== expected || events.length === 0) return this.forget(streamName);
    this.remember(streamName, expected + BigInt(events.length), known.first, [...known.events, ...events]);
  }

  /** Drops the stream (e.g. after this process truncated it). */
  forget(streamName: string): void {
    this.#streams?.delete(streamName);
  }

  /** Streams and approximate bytes held now. */
  get size(): { readonly streams: number; readonly bytes: number } {
    return { streams: this.#streams?.size ?? 0, bytes: this.#streams?.calculatedSize ?? 0 };
  }
}

/**
 * A deliberately high estimate of the heap a parsed JSON value takes, bytes: per object 64 + 24 a
 * member, per array 32 + 8 an element, per string 24 + 2 a character, 16 per other value. Counted
 * on the objects, not on the JSON text: `[{},{},…]` is 3 characters but ~60 bytes a member.
 */
export function heapBytesOf(value: unknown): number {
  if (typeof value === 'string') return 24 + 2 * value.length;
  if (typeof value !== 'object' || value === null) return 16;
  if (value instanceof Date) return 48;
  if (Array.isArray(value)) {
    let bytes = 32 + 8 * value.length;
    for (const item of value) bytes += heapBytesOf(item);
    return bytes;
  }
  let bytes = 64;
  for (const [key, item] of Object.entries(value)) bytes += 24 + 2 * key.length + heapBytesOf(item);
  return bytes;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
