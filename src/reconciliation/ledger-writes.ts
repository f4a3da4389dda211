import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/index.js';
import { CLOCK, type Clock } from '../common/clock.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { EVENT_STORE } from '../event-store/event-store.token.js';
import {
  decideReconciledDuplicate,
  fold,
  operationStreamName,
  type JsonValue,
  type OperationKey,
  type ReconciledDuplicateOutcome,
} from '../ledger/index.js';
import { DecideAndAppend } from '../operations/decide-and-append.js';
import { toLedgerEvent } from '../operations/decide-and-append.js';
import type { RequestContext } from '../operations/request-context.js';
import { RunPolicyCommand } from '../operations/policy-commands/run-policy-command.command.js';

/** Evidence that a record found at the destination is the operation's effect. */
export interface FoundEvidence {
  readonly operationId: string;
  readonly recordId: string;
  /** The key fields the match rests on (recorded as the evidence's `checkedFields`). */
  readonly checkedFields: Readonly<Record<string, JsonValue>>;
  readonly note: string;
}

/**
 * The reconciliation's only way into the write path (docs/reconciliation.md "Categories"):
 * the decide-and-append loop of the operations module for duplicate effects, and the normal
 * evidence command for recovery evidence — so a reconciliation is decided exactly like a worker's
 * or an operator's report. Every event carries the run id as its correlation id and the key id of
 * the caller who started the run.
 */
@Injectable()
export class LedgerWrites {
  constructor(
    private readonly loop: DecideAndAppend,
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Event metadata of a run's writes. */
  context(reconciliationId: string, caller: Caller): RequestContext {
    const ctx = { correlationId: reconciliationId, causationId: randomUUID() };
    return caller.keyId && caller.keyId !== 'anonymous' ? { ...ctx, keyId: caller.keyId } : ctx;
  }

  /**
   * Reports an extra destination record of a confirmed operation (decideReconciledDuplicate):
   * records `DuplicateEffectDetected` (source `reconciliation`) unless the stream already has it.
   * @throws ContentionError, EventStoreUnavailableError.
   */
  async reportDuplicate(
    key: OperationKey,
    recordId: string,
    reconciliationId: string,
    caller: Caller,
  ): Promise<ReconciledDuplicateOutcome> {
    const executed = await this.loop.run(
      key,
      (state) =>
        decideReconciledDuplicate(
          { type: 'ReportReconciledDuplicate', now: this.clock.now(), recordId, reconciliationId },
          state,
        ),
      this.context(reconciliationId, caller),
    );
    if (executed.kind === 'refused') throw new Error('decideReconciledDuplicate never refuses');
    return executed.result.outcome;
  }

  /**
   * Submits `found` evidence through the evidence command (POST /v1/operations/{id}/evidence),
   * under the action's policy and with the rights of `caller`.
   * @returns `applied`, or the refusal's problem code (`not-unknown`, `operator-only-recovery`, …).
   * @throws ContentionError, EventStoreUnavailableError.
   */
  async submitFound(evidence: FoundEvidence, reconciliationId: string, caller: Caller): Promise<string> {
    const outcome = await this.commands.execute(
      new RunPolicyCommand(
        evidence.operationId,
        {
          type: 'SubmitEvidence',
          verdict: 'found',
          destinationRef: evidence.recordId,
          checkedFields: evidence.checkedFields,
          actor: caller.name,
          note: evidence.note,
        },
        caller,
        this.context(reconciliationId, caller),
      ),
    );
    if (!('policyVersion' in outcome)) return outcome.kind;
    return outcome.kind === 'refused' ? outcome.refusal.code : 'applied';
  }

  /** The payload the operation was claimed with, from its stream (null: none). */
  async payloadOf(key: OperationKey): Promise<JsonValue | null> {
    const events = await this.store.read(operationStreamName(key));
    return fold(events.map(toLedgerEvent)).payload;
  }
}
