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
 * The events of a successful append as the store recorded them, without reading them back: copied
 * through JSON (what the database stored), at consecutive stream and global positions from `at`.
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
