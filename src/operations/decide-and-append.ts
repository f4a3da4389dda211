import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LEDGER_CONFIG } from '../config/config.token.js';
import type { LedgerConfig } from '../config/ledger-config.js';
import { ContentionError } from '../common/contention.error.js';
import {
  NO_STREAM,
  WrongExpectedVersionError,
  type EventStore,
  type EventToAppend,
  type RecordedEvent,
} from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import {
  auditStreamName,
  evolve,
  fold,
  operationIdFor,
  operationStreamName,
  type Decision,
  type LedgerEvent,
  type OperationKey,
  type OperationState,
} from '../ledger/index.js';
import {
  LEDGER_SPANS,
  logDomainEvent,
  nestEventLogger,
  withLedgerSpan,
  withLedgerSpanSync,
  type LedgerSpanFields,
} from '../observability/index.js';
import { AuditWriter } from './audit-writer.js';
import { DuplicateAudit } from './duplicate-audit.js';
import type { RequestContext } from './request-context.js';

/** A decision together with the state it led to. */
export type Executed<R> = Decision<R> & {
  readonly stateAfter: OperationState;
  /** Revision of the decision stream's last event after the decision (null: no stream). */
  readonly revision: bigint | null;
};

/** Options of {@link DecideAndAppend.run}. */
export interface RunOptions {
  /**
   * With no held copy, decide against the empty stream and read only when `no_stream` fails:
   * right for claims, where most keys are new (a refused append returns the stream's events).
   */
  readonly assumeNew?: boolean;
}

/** The operation a run is on: its key, its decision stream's name, the request's correlation. */
interface Target {
  readonly key: OperationKey;
  readonly streamName: string;
  readonly ctx: RequestContext;
}

/**
 * The events a decision is taken on. `held`: a copy this process holds of the stream, not read
 * for this command, so a decision on it must be proven current before it is answered.
 */
interface Basis {
  readonly events: readonly RecordedEvent[];
  readonly held: boolean;
}

/** The empty stream: a claim's first guess when nothing is held (most keys are new). */
const NEW_STREAM: Basis = { events: [], held: false };

/** One round: the decision stood, or the basis it was taken on was stale (undefined: re-read). */
type Round<R> =
  { readonly stood: true; readonly executed: Executed<R> } | { readonly stood: false; readonly next?: Basis };

/**
 * The decide-and-append loop for one operation (docs/architecture.md "Application"): fold →
 * decide → append at the expected revision. A decision on a held copy (`EventStore.peek`) stands
 * only when its write proves the copy current. A WrongExpectedVersion re-decides on the events
 * returned with it, at most `maxConcurrencyRetries` times, then {@link ContentionError} (503): the
 * append is the only guard against duplicate claims. Audit events go to the companion stream.
 */
@Injectable()
export class DecideAndAppend {
  /** One line per notable event appended (docs/observability.md "Logs"). */
  private readonly eventLog = nestEventLogger('Ledger');

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LEDGER_CONFIG) private readonly config: LedgerConfig,
    private readonly audit: AuditWriter,
    private readonly duplicates: DuplicateAudit,
  ) {}

  /**
   * Runs `decide` on the operation named by `key`, traced as a `ledger.command` span.
   * @throws ContentionError after too many concurrent writers; EventStoreUnavailableError.
   */
  async run<R>(
    key: OperationKey,
    decide: (state: OperationState) => Decision<R>,
    ctx: RequestContext,
    options: RunOptions = {},
  ): Promise<Executed<R>> {
    const target: Target = { key, streamName: operationStreamName(key), ctx };
    const fields: LedgerSpanFields = {
      operationId: operationIdFor(key),
      tenant: key.tenant,
      action: key.action,
    };
    return withLedgerSpan(LEDGER_SPANS.command, fields, async (span) => {
      let basis = this.held(target.streamName) ?? (options.assumeNew ? NEW_STREAM : undefined);
      for (let round = 0; round <= this.config.maxConcurrencyRetries; round++) {
        basis ??= { events: await this.store.read(target.streamName, { hold: true }), held: false };
        const outcome = await this.decideOn(target, basis, decide);
        if (outcome.stood) {
          const { executed } = outcome;
          span.set({
            outcome: executed.kind === 'accepted' ? 'accepted' : executed.refusal.code,
            wrongExpectedVersionRetries: round,
          });
          this.logEvents(target.ctx, executed);
          return executed;
        }
        basis = outcome.next;
      }
      throw new ContentionError(target.streamName);
    });
  }

  /** A log line for each notable decision and audit event of a decision that stood. */
  private logEvents({ correlationId, traceId, keyId, job }: RequestContext, d: Decision<unknown>): void {
    for (const event of [...d.events, ...d.audit]) {
      logDomainEvent(this.eventLog, event, { correlationId, traceId, keyId, job });
    }
  }

  /**
   * The stream as this process holds it (`EventStore.peek`: created, appended to or read here, or
   * a recent refusal), else undefined.
   */
  private held(streamName: string): Basis | undefined {
    const held = this.store.peek?.(streamName);
    return held && held.length > 0 ? { events: held, held: true } : undefined;
  }

  /** Decides on `basis` and records the decision, unless the basis proves stale. */
  private async decideOn<R>(
    target: Target,
    basis: Basis,
    decide: (state: OperationState) => Decision<R>,
  ): Promise<Round<R>> {
    const state = fold(basis.events.map(toLedgerEvent));
    let revision = lastRevision(basis.events);
    const decision = withLedgerSpanSync(
      LEDGER_SPANS.decide,
      { expectedRevision: revision ?? 'no_stream' },
      () => decide(state),
    );
    if (decision.events.length > 0) {
      try {
        revision = await this.append(target, decision, revision);
      } catch (err) {
        if (!(err instanceof WrongExpectedVersionError)) throw err;
        // the store returns the stream with the refusal where it can; else re-read
        const current = err.currentEvents;
        return { stood: false, next: current ? { events: current, held: false } : undefined };
      }
      await this.writeAudit(target, decision);
    } else if (basis.held) {
      // Nothing appended: the conditional audit write proves the held copy current; a duplicate
      // counted into an open window writes nothing, so a read proves it instead.
      const auditStream = auditStreamName(target.key);
      if (this.duplicates.wouldCount(auditStream, decision.audit)) {
        if (!(await this.unchangedSince(target.streamName, revision!))) return { stood: false };
        await this.writeAudit(target, decision);
      } else {
        if (!(await this.writeAuditIfUnchanged(target, decision, revision!))) return { stood: false };
        await this.duplicates.recorded(auditStream, decision.audit, (events) =>
          toStoreEvents(events, target.ctx),
        );
      }
    } else {
      await this.writeAudit(target, decision);
    }
    const stateAfter = decision.events.reduce(evolve, state);
    return { stood: true, executed: { ...decision, stateAfter, revision } };
  }

  /** Appends the decision's events expecting `revision` (null: no stream); the new revision. */
  private async append(
    { key, streamName, ctx }: Target,
    decision: Decision<unknown>,
    revision: bigint | null,
  ): Promise<bigint> {
    const fields = { expectedRevision: revision ?? NO_STREAM, eventCount: decision.events.length };
    const appended = await withLedgerSpan(LEDGER_SPANS.append, fields, () =>
      this.store.append(
        streamName,
        toStoreEvents(decision.events, ctx),
        revision ?? NO_STREAM,
        // the alias is recorded only when the append creates the stream
        revision === null ? { streamId: operationIdFor(key) } : {},
      ),
    );
    return appended.nextExpectedRevision;
  }

  /** Records the decision's audit events; duplicates through the coalescing window. */
  private async writeAudit({ key, ctx }: Target, decision: Decision<unknown>): Promise<void> {
    if (decision.audit.length > 0) {
      await this.duplicates.record(auditStreamName(key), decision.audit, (events) =>
        toStoreEvents(events, ctx),
      );
    }
  }

  /** True when the stream is still at `revision` (a read; nothing written). */
  private async unchangedSince(streamName: string, revision: bigint): Promise<boolean> {
    if (this.store.currentRevision) return (await this.store.currentRevision(streamName)) === revision;
    const after = await this.store.read(streamName, { fromRevision: revision + 1n });
    return after.length === 0;
  }

  /** False when there is no audit event to carry the proof, or the stream moved on. */
  private async writeAuditIfUnchanged(
    { key, streamName, ctx }: Target,
    decision: Decision<unknown>,
    revision: bigint,
  ): Promise<boolean> {
    if (decision.audit.length === 0) return false;
    return this.audit.writeIfUnchanged(auditStreamName(key), toStoreEvents(decision.audit, ctx), {
      streamName,
      revision,
    });
  }
}

/** Revision of the last event (null: no stream). */
function lastRevision(events: readonly RecordedEvent[]): bigint | null {
  return events.length === 0 ? null : events[events.length - 1]!.streamPosition;
}

/** Version of the event data shapes written by this code. */
export const EVENT_SCHEMA_VERSION = 1;

/** Domain events → store events with fresh ids and the request's correlation metadata. */
export function toStoreEvents(events: readonly LedgerEvent[], ctx: RequestContext): EventToAppend[] {
  return events.map((e) => ({
    id: randomUUID(),
    type: e.type,
    data: e.data as unknown as Record<string, unknown>,
    metadata: {
      correlationId: ctx.correlationId,
      causationId: ctx.causationId,
      schemaVersion: EVENT_SCHEMA_VERSION,
      ...(ctx.keyId ? { keyId: ctx.keyId } : {}),
      ...(ctx.keyName ? { keyName: ctx.keyName } : {}),
      ...(ctx.job ? { job: ctx.job } : {}),
      ...(ctx.traceparent ? { traceparent: ctx.traceparent } : {}),
      ...(ctx.tracestate ? { tracestate: ctx.tracestate } : {}),
    },
  }));
}

/** A stored event as the domain sees it (what the loop folds; queries fold the same way). */
export function toLedgerEvent(e: RecordedEvent): LedgerEvent {
  return { type: e.type, data: e.data } as unknown as LedgerEvent;
}
