import { Inject, Injectable } from '@nestjs/common';
import { LEDGER_CONFIG } from '../../config/config.token.js';
import type { LedgerConfig } from '../../config/ledger-config.js';
import {
  NO_STREAM,
  WrongExpectedVersionError,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
} from '../../event-store/event-store.port.js';
import { EVENT_STORE } from '../../event-store/event-store.token.js';
import {
  auditStreamName,
  evolve,
  fold,
  operationIdFor,
  operationStreamName,
  type Decision,
  type OperationKey,
  type OperationState,
} from '../../ledger/index.js';
import { AuditWriter } from './audit-writer.js';
import { toLedgerEvent, toStoreEvents, type RequestContext } from './event-metadata.js';
import { ContentionError } from './contention.error.js';

/** A decision together with the state it led to. */
export type Executed<R> = Decision<R> & {
  readonly stateAfter: OperationState;
  /** Revision of the decision stream's last event after the decision (null: no stream). */
  readonly revision: bigint | null;
};

/** Options of {@link OperationStreams.execute}. */
export interface ExecuteOptions {
  /**
   * Decide against the empty stream first and append with `no_stream`, reading only when that
   * fails. Right for claims, where most keys are new: a new key costs one round trip, and a
   * refused append returns the stream's events so a duplicate costs one round trip too.
   */
  readonly assumeNew?: boolean;
}

/**
 * Runs the decider loop for one operation (DESIGN.md "Architecture"): load the decision stream →
 * fold → decide → append with the expected revision read. A WrongExpectedVersion means another
 * writer got there first: re-read and re-decide, at most `maxConcurrencyRetries` times, then
 * {@link ContentionError} (503). The append is the only guard against duplicate claims.
 */
@Injectable()
export class OperationStreams {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly audit: AuditWriter,
  ) {}

  /**
   * Executes `decide` on the operation named by `key`. Decision events are appended to
   * `operation-<key>`; audit events to `audit-operation-<key>` (expected revision `any`).
   * @throws ContentionError after too many concurrent writers; EventStoreUnavailableError.
   */
  async execute<R>(
    key: OperationKey,
    decide: (state: OperationState) => Decision<R>,
    ctx: RequestContext,
    options: ExecuteOptions = {},
  ): Promise<Executed<R>> {
    const streamName = operationStreamName(key);
    // For a claim: the stream as this process holds it (a repeat of a recent claim), else none.
    // Either is a guess that the write below verifies.
    const peeked = options.assumeNew ? this.store.peek?.(streamName) : undefined;
    const held = peeked && peeked.length > 0 ? peeked : undefined;
    let events: readonly RecordedEvent[] | undefined = options.assumeNew ? (held ?? []) : undefined;
    for (let round = 0; round <= this.config.maxConcurrencyRetries; round++) {
      const guessed = events === held && held !== undefined;
      events ??= await this.store.read(streamName);
      const state = fold(events.map(toLedgerEvent));
      const expected: ExpectedRevision =
        events.length === 0 ? NO_STREAM : events[events.length - 1]!.streamPosition;
      const decision = decide(state);
      let revision: bigint | null = events.length === 0 ? null : events[events.length - 1]!.streamPosition;
      if (decision.events.length > 0) {
        try {
          const appended = await this.store.append(
            streamName,
            toStoreEvents(decision.events, ctx),
            expected,
            // the alias is recorded only when the append creates the stream
            expected === NO_STREAM ? { streamId: operationIdFor(key) } : {},
          );
          revision = appended.nextExpectedRevision;
        } catch (err) {
          if (!(err instanceof WrongExpectedVersionError)) throw err;
          events = err.currentEvents;
          continue;
        }
      }
      if (guessed && decision.events.length === 0) {
        // decided on the held copy and nothing appended to prove it current: the audit write
        // carries the proof (written only if the stream is still at that revision), else re-read
        const unchanged =
          decision.audit.length > 0 &&
          (await this.audit.writeIfUnchanged(auditStreamName(key), toStoreEvents(decision.audit, ctx), {
            streamName,
            revision: revision!,
          }));
        if (!unchanged) {
          events = undefined;
          continue;
        }
      } else if (decision.audit.length > 0) {
        await this.audit.write(auditStreamName(key), toStoreEvents(decision.audit, ctx));
      }
      const stateAfter = decision.events.reduce(evolve, state);
      return { ...decision, stateAfter, revision };
    }
    throw new ContentionError(streamName);
  }

  /**
   * The folded state and stream revision of an operation, straight from its stream. With `asOf`,
   * only the events up to a stream revision (inclusive) and/or recorded at or before a time (the
   * store's clock) are folded: the state an auditor would have seen then.
   */
  async load(
    key: OperationKey,
    asOf: { readonly revision?: bigint; readonly time?: Date } = {},
  ): Promise<{ state: OperationState; revision: bigint | null }> {
    const all = await this.store.read(operationStreamName(key));
    const events = all.filter(
      (e) =>
        (asOf.revision === undefined || e.streamPosition <= asOf.revision) &&
        (asOf.time === undefined || e.recordedAt.getTime() <= asOf.time.getTime()),
    );
    return {
      state: fold(events.map(toLedgerEvent)),
      revision: events.length ? events[events.length - 1]!.streamPosition : null,
    };
  }
}
