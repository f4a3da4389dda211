import {
  NO_STREAM as CLIENT_NO_STREAM,
  StreamNotFoundError,
  type EventStoreDBClient,
  WrongExpectedVersionError as ClientWrongExpectedVersionError,
} from '@eventstore/db-client';
import { v5 as uuidv5 } from 'uuid';
import { toEventData } from './recorded-event-mapping.js';
import { collectRead, type CallRunner } from './call-runner.js';

/**
 * Alias streams are named `ledger-stream-id-<uuid>`: outside the ledger's prefixes (`operation-`,
 * `audit-operation-`), so projections never see them, and not a `$` system stream, which a secured
 * cluster lets only admins write by default (docs "Access control lists", `$systemStreamAcl`).
 */
export const STREAM_ALIAS_PREFIX = 'ledger-stream-id-';
/** Type of the one event of an alias stream; data `{ streamName }`. */
export const STREAM_ALIAS_EVENT_TYPE = 'StreamIdRecorded';
/** Namespace of the alias events' UUID v5 ids (fixed forever: changing it breaks deduplication). */
const ALIAS_ID_NAMESPACE = '3a7e1c52-9d4b-4f0e-8a61-2b5c7d9e0f13';
/** Aliases remembered in memory (they never change, so a hit skips a round trip). */
const CACHE_LIMIT = 10_000;

/** The alias stream of `streamId` (a UUID, any case). */
export function aliasStreamName(streamId: string): string {
  return STREAM_ALIAS_PREFIX + streamId.toLowerCase();
}

/**
 * The stream-id aliases of {@link EventStore.findStreamName} on EventStoreDB, which has no
 * secondary index: each alias is a stream of its own holding one event that names the stream.
 *
 * The alias is written BEFORE the stream's first events, with `no_stream` and a UUID v5 event id
 * of (stream id, stream name): a repeat is acknowledged without writing (EventStoreDB docs
 * "Idempotence"), another stream claiming the id is refused, and a crash between the two appends
 * leaves an alias the retry repairs — events written first would leave a stream no alias finds.
 */
export class StreamAliases {
  private readonly known = new Map<string, string>();

  constructor(
    private readonly client: EventStoreDBClient,
    private readonly run: CallRunner,
  ) {}

  /**
   * Records that `streamId` names `streamName`; a no-op when it already does.
   * @throws Error when `streamId` already names another stream (nothing is written);
   *   EventStoreUnavailableError.
   */
  async record(streamId: string, streamName: string): Promise<void> {
    const id = streamId.toLowerCase();
    if (this.known.get(id) === streamName) return;
    const alias = aliasStreamName(id);
    const event = toEventData({
      id: uuidv5(`${id}\n${streamName}`, ALIAS_ID_NAMESPACE),
      type: STREAM_ALIAS_EVENT_TYPE,
      data: { streamName, streamId: id },
      metadata: {},
    });
    try {
      // Safe to retry: no_stream with a fixed event id (see the class comment).
      await this.run({ what: `record stream id ${id}`, safe: true }, ({ deadline }) =>
        this.client.appendToStream(alias, event, { expectedRevision: CLIENT_NO_STREAM, deadline }),
      );
    } catch (error) {
      if (!(error instanceof ClientWrongExpectedVersionError)) throw error;
      const owner = await this.find(id);
      if (owner !== streamName) {
        throw new Error(
          `Stream id ${id} already names stream ${String(owner)}; refusing to give it to ${streamName}`,
        );
      }
    }
    this.remember(id, streamName);
  }

  /** The stream `streamId` names, or null. @throws EventStoreUnavailableError. */
  async find(streamId: string): Promise<string | null> {
    const id = streamId.toLowerCase();
    const cached = this.known.get(id);
    if (cached) return cached;
    try {
      const events = await this.run({ what: `find stream id ${id}`, safe: true }, (context) =>
        collectRead(context, () => this.client.readStream(aliasStreamName(id), { maxCount: 1 })),
      );
      const data = events[0]?.event?.data as { streamName?: unknown } | undefined;
      if (typeof data?.streamName !== 'string') return null;
      this.remember(id, data.streamName);
      return data.streamName;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
  }

  private remember(id: string, streamName: string): void {
    if (this.known.size >= CACHE_LIMIT) this.known.delete(this.known.keys().next().value!);
    this.known.set(id, streamName);
  }
}
