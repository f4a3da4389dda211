import { randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  NO_STREAM as CLIENT_NO_STREAM,
  StreamNotFoundError,
  type EventStoreDBClient,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@eventstore/db-client';
import { collectRead, type CallRunner } from './call-runner.js';
import { toEventData } from './recorded-event-mapping.js';

/** Largest `$maxAge` EventStoreDB accepts, seconds (a 32-bit signed integer on the server). */
export const MAX_STREAM_AGE_SECONDS = 2 ** 31 - 1;
/** Attempts of one metadata update when other writers update the same metadata concurrently. */
const CONFLICT_ATTEMPTS = 5;

/** Raw stream metadata as stored in `$$<stream>` (`$maxAge`, `$tb`, `$acl` … and custom keys). */
export type RawStreamMetadata = Record<string, unknown>;

/**
 * Updates the metadata of `streamName` (docs "Stream metadata") by read-change-append at the
 * metastream's revision, so concurrent updates of different keys never overwrite each other; one
 * event id across retries, so a retry after a lost answer is not doubled.
 * @throws Error after repeated conflicts; EventStoreUnavailableError.
 */
export async function updateStreamMetadata(
  client: EventStoreDBClient,
  run: CallRunner,
  streamName: string,
  change: (current: RawStreamMetadata) => RawStreamMetadata,
): Promise<void> {
  const metastream = `$$${streamName}`;
  for (let attempt = 0; attempt < CONFLICT_ATTEMPTS; attempt++) {
    const latest = await readLatestMetadata(client, run, metastream);
    const data = { ...latest.data, ...change(latest.data) };
    const event = toEventData({ id: randomUUID(), type: '$metadata', data, metadata: {} });
    try {
      await run({ what: `update metadata of ${streamName}`, safe: true }, ({ deadline }) =>
        client.appendToStream(metastream, event, {
          expectedRevision: latest.revision ?? CLIENT_NO_STREAM,
          deadline,
        }),
      );
      return;
    } catch (error) {
      if (!(error instanceof ClientWrongExpectedVersionError)) throw error;
    }
  }
  throw new Error(`Metadata of ${streamName} kept changing under ${CONFLICT_ATTEMPTS} update attempts`);
}

async function readLatestMetadata(
  client: EventStoreDBClient,
  run: CallRunner,
  metastream: string,
): Promise<{ revision: bigint | undefined; data: RawStreamMetadata }> {
  try {
    const [last] = await run({ what: `read ${metastream}`, safe: true }, (context) =>
      collectRead(context, () =>
        client.readStream(metastream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 }),
      ),
    );
    const data = last?.event?.data;
    const object = typeof data === 'object' && data !== null && !(data instanceof Uint8Array) ? data : {};
    return { revision: last?.event?.revision, data: object as RawStreamMetadata };
  } catch (error) {
    if (error instanceof StreamNotFoundError) return { revision: undefined, data: {} };
    throw error;
  }
}
