import type { RecordedEvent } from '../event-store.port.js';

/** Where an append's events were stored: stream and global position of the first, and the time. */
export interface AppendedAt {
  readonly streamName: string;
  /** Stream position of the first event (the expected revision + 1; 0 for a new stream). */
  readonly firstStreamPosition: bigint;
  /** Global position of the first event; the others follow it one by one. */
  readonly firstGlobalPosition: bigint;
  /** ISO 8601 UTC, as the append statement returned it (`RECORDED_AT_COLUMN`). */
  readonly recordedAt: string;
}

/**
 * The events of a successful append as the store recorded them, for a held copy of the stream
 * (`KnownStreams`), without reading them back: `encoded` as `encodeEvents` made them, copied
 * through JSON (what the database stored; the caller's objects stay the caller's, the held copy
 * freezes its own), at consecutive stream positions from `at.firstStreamPosition` and consecutive
 * global positions from `at.firstGlobalPosition` (`ledger_append` and `ledger_create_streams`
 * number one append's events so: sql/functions/).
 */
export function appendedEvents(encoded: readonly unknown[], at: AppendedAt): RecordedEvent[] {
  const copies = JSON.parse(JSON.stringify(encoded)) as {
    id: string;
    type: string;
    data: Record<string, unknown>;
    metadata: Record<string, unknown>;
  }[];
  const recordedAt = new Date(at.recordedAt);
  return copies.map((e, i) => ({
    id: e.id.toLowerCase(),
    type: e.type,
    streamName: at.streamName,
    streamPosition: at.firstStreamPosition + BigInt(i),
    globalPosition: at.firstGlobalPosition + BigInt(i),
    data: e.data,
    metadata: e.metadata,
    recordedAt,
  }));
}
