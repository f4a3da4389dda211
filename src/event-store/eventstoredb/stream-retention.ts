import type { EventStoreDBClient } from '@eventstore/db-client';
import type { CallRunner } from './call-runner.js';
import { MAX_STREAM_AGE_SECONDS, updateStreamMetadata } from './stream-metadata.js';

/**
 * Retention through EventStoreDB stream metadata (docs "Stream metadata", "Deleting events",
 * "Scavenging"). Both settings hide events from STREAM reads at once; the events stay in the
 * transaction log — and in `$all` reads — until a scavenge removes them. Retention must never
 * silently reopen a key (docs/domain.md "Retention"): the caller keeps
 * a tombstone (key, fingerprint, outcome) before an operation's events may go.
 */

/**
 * Sets `$maxAge` of `streamName`: events older than `maxAgeSeconds` are no longer returned.
 * @throws RangeError for a non-integer or out-of-range age; EventStoreUnavailableError.
 */
export async function setStreamMaxAge(
  client: EventStoreDBClient,
  run: CallRunner,
  streamName: string,
  maxAgeSeconds: number,
): Promise<void> {
  if (!Number.isInteger(maxAgeSeconds) || maxAgeSeconds < 1 || maxAgeSeconds > MAX_STREAM_AGE_SECONDS) {
    throw new RangeError(
      `maxAgeSeconds must be an integer in 1..${MAX_STREAM_AGE_SECONDS}, got ${maxAgeSeconds}`,
    );
  }
  await updateStreamMetadata(client, run, streamName, () => ({ $maxAge: maxAgeSeconds }));
}

/**
 * The port's `truncateBefore` on EventStoreDB: sets `$tb`, never lowering it (a lower `$tb` would
 * bring back unscavenged events).
 * @returns -1n: EventStoreDB does not say how many events a `$tb` hides.
 * @throws RangeError for a negative or non-bigint revision; EventStoreUnavailableError.
 */
export async function truncateStreamBefore(
  client: EventStoreDBClient,
  run: CallRunner,
  streamName: string,
  revision: bigint,
): Promise<bigint> {
  if (typeof revision !== 'bigint' || revision < 0n || revision > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError(`truncateBefore: revision must be a bigint >= 0, got ${String(revision)}`);
  }
  await updateStreamMetadata(client, run, streamName, (current) => {
    const previous = typeof current.$tb === 'number' ? current.$tb : 0;
    return { $tb: Math.max(previous, Number(revision)) };
  });
  return -1n;
}
