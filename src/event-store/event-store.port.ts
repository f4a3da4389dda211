/**
 * The event store port: the only way the ledger touches stored events.
 *
 * Semantics follow EventStoreDB's (https://developers.eventstore.com/clients/grpc/appending-events):
 * stream revisions start at 0n for the first event; `expectedRevision` is `'no_stream'` (the stream
 * must not exist), `'any'` (no check) or the exact bigint revision of the stream's last event.
 */

/** The stream must not exist yet (first append). */
export const NO_STREAM = 'no_stream' as const;
/** Append without a concurrency check. */
export const ANY = 'any' as const;

/** `'no_stream'`, `'any'`, or the exact revision (0-based) of the stream's last event. */
export type ExpectedRevision = typeof NO_STREAM | typeof ANY | bigint;

/** An event to append. `id` is a UUID chosen by the caller; re-appending the same ids is a no-op. */
export interface EventToAppend {
  readonly id: string;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata?: Record<string, unknown>;
}

/** An event as stored. Positions are bigint; `recordedAt` is the store's clock at commit. */
export interface RecordedEvent {
  readonly id: string;
  readonly type: string;
  readonly streamName: string;
  /** 0-based position within its stream (= the stream revision after this event). */
  readonly streamPosition: bigint;
  /** Position across all streams; strictly increasing in commit-visible order. */
  readonly globalPosition: bigint;
  readonly data: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
  readonly recordedAt: Date;
}

/** Result of a successful append. */
export interface AppendResult {
  /** Revision of the stream's last event after the append: pass it as the next expectedRevision. */
  readonly nextExpectedRevision: bigint;
  /** Global position of the first and last appended event. */
  readonly firstGlobalPosition: bigint;
  readonly lastGlobalPosition: bigint;
  /** True when every event id was already stored (an idempotent retry): nothing new was written. */
  readonly deduplicated: boolean;
}

/** Options of one append. */
export interface AppendOptions {
  /**
   * A stable UUID alias for the stream, recorded when the stream is created and resolvable with
   * {@link EventStore.findStreamName}. The ledger passes the operationId (UUID v5 of the key).
   */
  readonly streamId?: string;
}

/** One append of a batch (see {@link EventStore.appendBatch}). */
export interface AppendRequest {
  readonly streamName: string;
  readonly events: readonly EventToAppend[];
  readonly expectedRevision: ExpectedRevision;
  /**
   * Write only if ANOTHER stream is still at this revision when the batch commits; otherwise the
   * outcome is a WrongExpectedVersionError for that stream. Honoured only by stores with
   * {@link EventStore.peek}; the SQL stores hold a share lock of that stream's row.
   */
  readonly onlyIf?: { readonly streamName: string; readonly revision: bigint };
}

/** Per-request outcome of a batch append; a failed request never fails the others. */
export type BatchAppendOutcome =
  ({ readonly ok: true } & AppendResult) | { readonly ok: false; readonly error: WrongExpectedVersionError };

/** Reading options for one stream. */
export interface ReadStreamOptions {
  /** Read events whose stream position is >= this (default 0n). */
  readonly fromRevision?: bigint;
  /**
   * Keep what was read (only with `fromRevision` 0) as this process's copy, offered by
   * {@link EventStore.peek}; the returned events are frozen. Ignored by stores without `peek`.
   * @defaultValue false
   */
  readonly hold?: boolean;
}

/** What a {@link EventStore.readAll} reader at a checkpoint has yet to read. */
export interface Backlog {
  /** Events after the checkpoint, counted up to the cap asked for. */
  readonly events: number;
  /** True when there are more than the cap. */
  readonly capped: boolean;
  /** Age of the oldest of them on the store's clock, seconds (0 when none). */
  readonly seconds: number;
}

export interface EventStore {
  /**
   * Appends `events` atomically to `streamName` if its current revision matches `expectedRevision`.
   * @throws WrongExpectedVersionError when the check fails (nothing is written); the error carries
   *   the actual revision and, where the store can give it cheaply, the stream's events.
   * @throws EventStoreUnavailableError when the store cannot be reached (callers answer 503).
   */
  append(
    streamName: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult>;

  /** Appends to several streams in one round trip where the store can; results in request order. */
  appendBatch(requests: readonly AppendRequest[]): Promise<BatchAppendOutcome[]>;

  /** All events of a stream in stream order; `[]` when the stream does not exist. */
  read(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;

  /**
   * Events of all streams with global position > `after` (a checkpoint; use -1n for the start), in
   * global order, at most `limit` of them. Never returns an event while an earlier-positioned one
   * may still commit (transaction high-water mark), so a checkpoint never skips a late commit.
   */
  readAll(after: bigint, limit: number): Promise<RecordedEvent[]>;

  /**
   * Deletes the stream's events with a stream position below `revision` (EventStoreDB's `$tb`
   * "truncate before"); the stream's revision is unchanged.
   * @returns the number of events removed (where the store can tell; else -1n).
   */
  truncateBefore(streamName: string, revision: bigint): Promise<bigint>;

  /** The stream created with `options.streamId` = `streamId`, or null. */
  findStreamName(streamId: string): Promise<string | null>;

  /**
   * Optional wake-up hook for catch-up readers: calls `listener` soon after events were appended,
   * here or (where the store can tell) by other processes. A hint that may be lost: readers still
   * follow {@link readAll} and keep a fallback poll. `listener` must not throw.
   * @returns a function that ends this subscription (idempotent).
   */
  subscribeToAppends?(listener: () => void): () => void;

  /**
   * Optional: the events of a stream as this process last saw them whole, without asking the
   * database — possibly stale, so a decision on them must be verified by its write (expected
   * revision, or {@link AppendRequest.onlyIf}). Undefined when nothing is held. Frozen, shared.
   */
  peek?(streamName: string): readonly RecordedEvent[] | undefined;

  /**
   * Optional: the revision of the stream's last event as committed now (null: no such stream),
   * without its events — proves a {@link peek} copy current when nothing is written.
   */
  currentRevision?(streamName: string): Promise<bigint | null>;

  /** Optional: the {@link Backlog} at checkpoint `after`, counted up to `cap`, without reading it. */
  backlogAfter?(after: bigint, cap: number): Promise<Backlog>;

  /** Releases connections. Idempotent. */
  close(): Promise<void>;
}

/**
 * The stream's revision did not match the expected one; nothing was written.
 * Mirrors EventStoreDB's WrongExpectedVersionError (`expectedVersion`, `actualVersion`).
 */
export class WrongExpectedVersionError extends Error {
  override readonly name = 'WrongExpectedVersionError';
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    /** `'no_stream'` when the stream does not exist, else the revision of its last event. */
    readonly actual: bigint | typeof NO_STREAM,
    /** The stream's events as seen at the failed check, when the store returns them for free. */
    readonly currentEvents?: readonly RecordedEvent[],
  ) {
    super(`Wrong expected revision on ${streamName}: expected ${String(expected)}, actual ${String(actual)}`);
  }
}

/**
 * A {@link WrongExpectedVersionError} without a stack trace: for a duplicate claim it is an answer,
 * not a bug (docs/decisions.md "Claim path").
 */
export function wrongExpectedVersion(
  ...args: ConstructorParameters<typeof WrongExpectedVersionError>
): WrongExpectedVersionError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new WrongExpectedVersionError(...args);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The store cannot be reached or timed out; the caller should answer 503 with Retry-After. */
export class EventStoreUnavailableError extends Error {
  override readonly name: string = 'EventStoreUnavailableError';
  constructor(
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/**
 * The store's storage cannot take writes now; `reason` (e.g. `storage: disk full, 3 MiB free, need
 * 24`) is safe to show to clients. The store may resume by itself.
 */
export class StorageUnavailableError extends EventStoreUnavailableError {
  override readonly name = 'StorageUnavailableError';
  constructor(
    /** One line for operators and clients: what is short and what is needed. */
    readonly reason: string,
    cause?: unknown,
  ) {
    super(`Event store unavailable: ${reason}`, cause);
  }
}

/**
 * Some appended event ids are already stored, but not as this exact append (partial overlap,
 * another stream, or a repeat within the append). Nothing was written: event ids are the
 * idempotency key, so reusing one for different events is a caller bug.
 */
export class EventIdConflictError extends Error {
  override readonly name = 'EventIdConflictError';
  constructor(
    readonly streamName: string,
    message: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}
