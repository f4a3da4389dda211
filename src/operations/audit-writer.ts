import { Inject, Injectable } from '@nestjs/common';
import {
  ANY,
  type AppendRequest,
  type BatchAppendOutcome,
  type EventStore,
  type EventToAppend,
  WrongExpectedVersionError,
} from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import { GroupCommit, type GroupCommitOptions } from '../event-store/group-commit.js';

/** Group commit of audit appends: one batch in flight; unkeyed, as the stores merge repeated streams. */
export const AUDIT_GROUP_COMMIT: GroupCommitOptions = { maxInFlight: 1, maxBatchSize: 256 };

/**
 * Appends audit events to companion streams (revision `any`); requests arriving while a write is
 * in flight leave together through {@link GroupCommit}. Callers await their own durability.
 */
@Injectable()
export class AuditWriter {
  readonly #group: GroupCommit<AppendRequest, BatchAppendOutcome>;

  constructor(@Inject(EVENT_STORE) store: EventStore) {
    this.#group = new GroupCommit((batch) => store.appendBatch(batch), AUDIT_GROUP_COMMIT);
  }

  /**
   * Appends `events` to `streamName`; resolves when they are stored.
   * @throws EventStoreUnavailableError when the store is down.
   */
  async write(streamName: string, events: readonly EventToAppend[]): Promise<void> {
    if (events.length === 0) return;
    const outcome = await this.#group.submit(null, { streamName, events, expectedRevision: ANY });
    if (!outcome.ok) throw outcome.error;
  }

  /**
   * Appends `events` only if the decision stream `onlyIf.streamName` is still at `onlyIf.revision`
   * (a decision taken on a held copy, `EventStore.peek`).
   * @returns true when stored, false when that stream had moved on (nothing stored).
   * @throws EventStoreUnavailableError when the store is down.
   */
  async writeIfUnchanged(
    streamName: string,
    events: readonly EventToAppend[],
    onlyIf: { readonly streamName: string; readonly revision: bigint },
  ): Promise<boolean> {
    const outcome = await this.#group.submit(null, { streamName, events, expectedRevision: ANY, onlyIf });
    if (outcome.ok) return true;
    if (
      outcome.error instanceof WrongExpectedVersionError &&
      outcome.error.streamName === onlyIf.streamName
    ) {
      return false;
    }
    throw outcome.error;
  }
}
