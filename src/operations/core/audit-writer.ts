import { Inject, Injectable } from '@nestjs/common';
import {
  ANY,
  type AppendRequest,
  type EventStore,
  type EventToAppend,
  WrongExpectedVersionError,
} from '../../event-store/event-store.port.js';
import { EVENT_STORE } from '../../event-store/event-store.token.js';

interface Pending {
  readonly request: AppendRequest;
  /** Called with the request's outcome error, if any (a failed `onlyIf` included). */
  readonly done: (err?: unknown) => void;
}

/**
 * Appends audit events (duplicate claims, payload conflicts) to companion streams with expected
 * revision `any`, grouping every request that arrives while a write is in flight into ONE
 * `appendBatch` round trip (group commit). Callers await durability of their own events.
 */
@Injectable()
export class AuditWriter {
  private queue: Pending[] = [];
  private flushing = false;

  constructor(@Inject(EVENT_STORE) private readonly store: EventStore) {}

  /**
   * Appends `events` to `streamName`; resolves when they are stored.
   * @throws EventStoreUnavailableError when the store is down.
   */
  write(streamName: string, events: readonly EventToAppend[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.enqueue({
        request: { streamName, events, expectedRevision: ANY },
        done: (err) => (err ? reject(err) : resolve()),
      });
    });
  }

  /**
   * Appends `events` to `streamName` only if the decision stream `onlyIf.streamName` is still at
   * `onlyIf.revision` when they are stored (for a decision taken on a held copy of that stream,
   * see `EventStore.peek`; only for stores that implement it).
   * @returns true when stored, false when that stream had moved on (nothing stored).
   * @throws EventStoreUnavailableError when the store is down.
   */
  writeIfUnchanged(
    streamName: string,
    events: readonly EventToAppend[],
    onlyIf: { readonly streamName: string; readonly revision: bigint },
  ): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.enqueue({
        request: { streamName, events, expectedRevision: ANY, onlyIf },
        done: (err) => {
          if (err instanceof WrongExpectedVersionError && err.streamName === onlyIf.streamName)
            resolve(false);
          else if (err) reject(err);
          else resolve(true);
        },
      });
    });
  }

  private enqueue(pending: Pending): void {
    this.queue.push(pending);
    if (!this.flushing) void this.flush();
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          const outcomes = await this.store.appendBatch(batch.map((p) => p.request));
          batch.forEach((p, i) => {
            const o = outcomes[i];
            p.done(o && !o.ok ? o.error : undefined);
          });
        } catch (err) {
          for (const p of batch) p.done(err);
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
