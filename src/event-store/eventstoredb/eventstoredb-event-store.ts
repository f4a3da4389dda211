import { EventStoreDBClient, StreamNotFoundError } from '@eventstore/db-client';
import {
  ANY,
  type AppendOptions,
  type AppendRequest,
  type AppendResult,
  type BatchAppendOutcome,
  EventIdConflictError,
  type EventStore,
  EventStoreUnavailableError,
  type EventToAppend,
  type ExpectedRevision,
  NO_STREAM,
  type ReadStreamOptions,
  type RecordedEvent,
  WrongExpectedVersionError,
} from '../event-store.port.js';
import { isUuid } from '../sql/append-encoding.js';
import { checkAppend } from './append-arguments.js';
import { AppendWakeups } from './append-wakeups.js';
import { collectRead, createCallRunner, type CallRunner } from './call-runner.js';
import {
  type EventStoreDbOptions,
  resolveEventStoreDbOptions,
  type ResolvedEventStoreDbOptions,
} from './eventstoredb-options.js';
import { readAllFiltered } from './read-all-filtered.js';
import { toEventData, toRecordedEvent, type EventToWrite } from './recorded-event-mapping.js';
import {
  ClientWrongExpectedVersionError,
  toClientExpectedRevision,
  toPortAppendError,
} from './revision-mapping.js';
import { StreamAliases } from './stream-alias.js';
import { setStreamMaxAge, truncateStreamBefore } from './stream-retention.js';

const MAX_LIMIT = 2 ** 31 - 1;

/**
 * The event store on EventStoreDB (https://developers.eventstore.com/clients/grpc/), through
 * `@eventstore/db-client` (docs/eventstoredb.md "How the ledger uses EventStoreDB"). Differences
 * from the SQL stores: the server acknowledges a repeated append without writing, so
 * `deduplicated` is always false; a wrong expected version never carries `currentEvents`.
 *
 * Needs EventStoreDB 22.6 or later (event positions on stream reads). Create it with {@link open}.
 */
export class EventStoreDbEventStore implements EventStore {
  readonly #client: EventStoreDBClient;
  readonly #options: ResolvedEventStoreDbOptions;
  readonly #run: CallRunner;
  readonly #aliases: StreamAliases;
  readonly #wakeups: AppendWakeups;
  readonly #releases: (() => Promise<void>)[] = [];
  #closing: Promise<void> | undefined;

  private constructor(client: EventStoreDBClient, options: ResolvedEventStoreDbOptions) {
    this.#client = client;
    this.#options = options;
    this.#run = createCallRunner(options, () => this.#assertOpen());
    this.#aliases = new StreamAliases(client, this.#run);
    this.#wakeups = new AppendWakeups(client, options.streamPrefixes);
  }

  /**
   * Creates the client from the connection string and checks the server answers (one read).
   * @throws TypeError for a connection string the client cannot use (its message says why);
   *   EventStoreUnavailableError when no node answers after the retries.
   */
  static async open(options: EventStoreDbOptions): Promise<EventStoreDbEventStore> {
    const resolved = resolveEventStoreDbOptions(options);
    let client: EventStoreDBClient;
    try {
      client = EventStoreDBClient.connectionString(resolved.connectionString);
    } catch (error) {
      throw new TypeError(
        `EventStoreDB connection string: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    const store = new EventStoreDbEventStore(client, resolved);
    try {
      await store.findStreamName('00000000-0000-0000-0000-000000000000');
    } catch (error) {
      await store.close();
      throw error;
    }
    return store;
  }

  async append(
    streamName: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    this.#assertOpen();
    const toWrite = checkAppend(streamName, events, expectedRevision, options.streamId);
    const { streamId } = options;
    if (streamId !== undefined && expectedRevision === NO_STREAM) {
      await this.#aliases.record(streamId, streamName); // first: see stream-alias.ts
    }
    const result = await this.#write(streamName, toWrite, expectedRevision);
    // With `any` the stream's creation is only known afterwards; an alias conflict then surfaces
    // after the events were written (the ledger creates streams with no_stream only).
    const created = result.nextExpectedRevision === BigInt(toWrite.length - 1);
    if (streamId !== undefined && expectedRevision === ANY && created) {
      await this.#aliases.record(streamId, streamName);
    }
    this.#wakeups.announce();
    return result;
  }

  /**
   * Runs the requests concurrently; requests to one stream run in request order, as in the SQL stores.
   * @throws the first error that is not a WrongExpectedVersionError (other requests may have been
   *   written); TypeError/RangeError before anything is sent.
   */
  async appendBatch(requests: readonly AppendRequest[]): Promise<BatchAppendOutcome[]> {
    for (const r of requests) checkAppend(r.streamName, r.events, r.expectedRevision, undefined);
    const outcomes = new Array<BatchAppendOutcome>(requests.length);
    const byStream = new Map<string, number[]>();
    requests.forEach((r, i) => {
      const indexes = byStream.get(r.streamName);
      if (indexes) indexes.push(i);
      else byStream.set(r.streamName, [i]);
    });
    const settled = await Promise.allSettled(
      [...byStream.values()].map(async (indexes) => {
        for (const i of indexes) outcomes[i] = await this.#outcome(requests[i]!);
      }),
    );
    const failure = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failure) throw failure.reason;
    return outcomes;
  }

  async read(streamName: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0n;
    if (typeof from !== 'bigint' || from < 0n) {
      throw new RangeError(`fromRevision must be a bigint >= 0, got ${String(from)}`);
    }
    return this.#readStream(streamName, from);
  }

  async readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    if (typeof after !== 'bigint') throw new RangeError('readAll: after must be a bigint (-1n = start)');
    if (!Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
      throw new RangeError(`readAll: limit must be an integer in 0..${MAX_LIMIT}, got ${limit}`);
    }
    this.#assertOpen();
    if (limit === 0) return [];
    return readAllFiltered(this.#client, this.#run, this.#options.streamPrefixes, after, limit);
  }

  /**
   * Sets the stream's `$tb`: `$all` reads keep returning the events until a scavenge removes them.
   * @returns -1n (EventStoreDB does not count them).
   */
  truncateBefore(streamName: string, revision: bigint): Promise<bigint> {
    return truncateStreamBefore(this.#client, this.#run, streamName, revision);
  }

  async findStreamName(streamId: string): Promise<string | null> {
    this.#assertOpen();
    return isUuid(streamId) ? this.#aliases.find(streamId) : null;
  }

  /** See the port; on EventStoreDB other processes' appends arrive through `subscribeToAll`. */
  subscribeToAppends(listener: () => void): () => void {
    if (this.#closing) return () => undefined;
    return this.#wakeups.add(listener);
  }

  /** Sets `$maxAge` of a stream (retention; see stream-retention.ts). @throws RangeError. */
  setStreamMaxAge(streamName: string, maxAgeSeconds: number): Promise<void> {
    return setStreamMaxAge(this.#client, this.#run, streamName, maxAgeSeconds);
  }

  /** Registers `release`, run when this store closes (the read-model database beside it). */
  releaseOnClose(release: () => Promise<void>): void {
    this.#releases.push(release);
  }

  /** Ends subscriptions, disposes the client, then runs the registered releases. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#wakeups.close();
      await this.#client.dispose().catch(() => undefined);
      for (const release of this.#releases) await release();
    })();
    return this.#closing;
  }

  async #write(
    streamName: string,
    events: EventToWrite[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    let result;
    try {
      result = await this.#run({ what: `append to ${streamName}`, safe: expected !== ANY }, ({ deadline }) =>
        this.#client.appendToStream(streamName, events.map(toEventData), {
          expectedRevision: toClientExpectedRevision(expected),
          deadline,
        }),
      );
    } catch (error) {
      if (error instanceof ClientWrongExpectedVersionError)
        throw toPortAppendError(streamName, expected, error);
      throw error;
    }
    if (!result.success)
      throw new Error('EventStoreDB client must throw on append failure (throwOnAppendFailure=true)');
    const last = result.nextExpectedRevision;
    if (events.length === 1 && result.position) {
      const position = result.position.commit;
      return {
        nextExpectedRevision: last,
        firstGlobalPosition: position,
        lastGlobalPosition: position,
        deduplicated: false,
      };
    }
    const first = last - BigInt(events.length) + 1n;
    const stored = first < 0n ? [] : await this.#readStream(streamName, first, events.length);
    if (stored.length !== events.length || stored.some((e, i) => e.id !== events[i]!.id)) {
      throw new EventIdConflictError(
        streamName,
        `EventStoreDB took the append to ${streamName} for a repeat, but its event ids are not stored as one append in this order; nothing was written`,
      );
    }
    return {
      nextExpectedRevision: last,
      firstGlobalPosition: stored[0]!.globalPosition,
      lastGlobalPosition: stored[stored.length - 1]!.globalPosition,
      deduplicated: false,
    };
  }

  async #outcome(request: AppendRequest): Promise<BatchAppendOutcome> {
    try {
      return {
        ok: true,
        ...(await this.append(request.streamName, request.events, request.expectedRevision)),
      };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError) return { ok: false, error };
      throw error;
    }
  }

  async #readStream(streamName: string, fromRevision: bigint, maxCount?: number): Promise<RecordedEvent[]> {
    try {
      const resolved = await this.#run({ what: `read ${streamName}`, safe: true }, (context) =>
        collectRead(context, () => this.#client.readStream(streamName, { fromRevision, maxCount })),
      );
      return resolved.flatMap(({ event }) => (event ? [toRecordedEvent(event)] : []));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }

  #assertOpen(): void {
    if (this.#closing) throw new EventStoreUnavailableError('The event store is closed');
  }
}
