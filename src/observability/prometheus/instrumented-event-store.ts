import { performance } from 'node:perf_hooks';
import {
  type AppendOptions,
  type AppendRequest,
  type AppendResult,
  type Backlog,
  type BatchAppendOutcome,
  type EventStore,
  type EventToAppend,
  type ExpectedRevision,
  type ReadStreamOptions,
  type RecordedEvent,
  WrongExpectedVersionError,
} from '../../event-store/event-store.port.js';
import { AUDIT_STREAM_PREFIX, keyFromStreamName, OPERATION_STREAM_PREFIX } from '../../ledger/index.js';
import type { LedgerMetrics } from './ledger-metrics.js';
import { registerStoreProbe } from './store-probe-collector.js';

/**
 * An {@link EventStore} decorator recording append latency and WrongExpectedVersion refusals in
 * {@link LedgerMetrics}, and the `ledger_event_store_up` probe; every call is forwarded unchanged.
 */
export class InstrumentedEventStore implements EventStore {
  constructor(
    readonly inner: EventStore,
    private readonly metrics: LedgerMetrics,
  ) {
    if (inner.subscribeToAppends) {
      this.subscribeToAppends = (listener) => inner.subscribeToAppends!(listener);
    }
    if (inner.peek) this.peek = (streamName) => inner.peek!(streamName);
    if (inner.currentRevision) this.currentRevision = (streamName) => inner.currentRevision!(streamName);
    if (inner.backlogAfter) this.backlogAfter = (after, cap) => inner.backlogAfter!(after, cap);
    registerStoreProbe(metrics, () => inner.read('health-check'));
  }

  /** Forwarded to the inner store when it has the hook. */
  readonly subscribeToAppends?: (listener: () => void) => () => void;

  /** Forwarded to the inner store when it has it. */
  readonly peek?: (streamName: string) => readonly RecordedEvent[] | undefined;

  /** Forwarded to the inner store when it has it. */
  readonly currentRevision?: (streamName: string) => Promise<bigint | null>;

  /** Forwarded to the inner store when it has it. */
  readonly backlogAfter?: (after: bigint, cap: number) => Promise<Backlog>;

  async append(
    streamName: string,
    events: readonly EventToAppend[],
    expectedRevision: ExpectedRevision,
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const start = performance.now();
    try {
      const result = await this.inner.append(streamName, events, expectedRevision, options);
      this.observe('append', 'ok', start);
      return result;
    } catch (error) {
      const refused = error instanceof WrongExpectedVersionError;
      this.observe('append', refused ? 'wrong_expected_version' : 'error', start);
      if (refused) this.metrics.wrongExpectedVersion.inc({ tenant: tenantOf(streamName) });
      throw error;
    }
  }

  async appendBatch(requests: readonly AppendRequest[]): Promise<BatchAppendOutcome[]> {
    const start = performance.now();
    try {
      const outcomes = await this.inner.appendBatch(requests);
      this.observe('append_batch', 'ok', start);
      outcomes.forEach((o, i) => {
        if (!o.ok) this.metrics.wrongExpectedVersion.inc({ tenant: tenantOf(requests[i]!.streamName) });
      });
      return outcomes;
    } catch (error) {
      this.observe('append_batch', 'error', start);
      throw error;
    }
  }

  read(streamName: string, options?: ReadStreamOptions): Promise<RecordedEvent[]> {
    return this.inner.read(streamName, options);
  }

  readAll(after: bigint, limit: number): Promise<RecordedEvent[]> {
    return this.inner.readAll(after, limit);
  }

  findStreamName(streamId: string): Promise<string | null> {
    return this.inner.findStreamName(streamId);
  }

  truncateBefore(streamName: string, revision: bigint): Promise<bigint> {
    return this.inner.truncateBefore(streamName, revision);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  private observe(operation: string, outcome: string, start: number): void {
    this.metrics.appendDuration.observe({ operation, outcome }, (performance.now() - start) / 1000);
  }
}

/** The innermost store under any {@link InstrumentedEventStore} decorators. */
export function unwrapEventStore(store: EventStore): EventStore {
  let current = store;
  while (current instanceof InstrumentedEventStore) current = current.inner;
  return current;
}

/** Tenant of an operation's decision or audit stream, `unknown` for other streams. */
function tenantOf(streamName: string): string {
  const name = streamName.startsWith(AUDIT_STREAM_PREFIX)
    ? OPERATION_STREAM_PREFIX + streamName.slice(AUDIT_STREAM_PREFIX.length)
    : streamName;
  return keyFromStreamName(name)?.tenant ?? 'unknown';
}
