/**
 * Given / when / then for the ledger deciders, in the style of Emmett's DeciderSpecification:
 *
 *   given([claimed(1, T0)]).when(startStep('x', 1, at(2))).then([{ type: 'StepStarted', ... }])
 *   given(history.unknown()).when(claim(at(90))).thenRefused('awaiting-recovery').thenAudit([...])
 *
 * `given` is folded with `fold`; the command is routed by its type to decideClaim,
 * decideWorkerCommand or decideResolve. Expected events may be complete events or partials (matched
 * with `toMatchObject`, and the number of events must be exact). Every `when` also checks the rules
 * that hold for any decision:
 * - decide is pure: the folded state is not mutated;
 * - decision events are decision-stream types, audit events are audit types;
 * - every event carries the server time of the command, the tenant of its key, and the operationId.
 * `thenRefused` additionally checks that the refusal is read-only for the holder (see
 * {@link assertRefusalIsReadOnly}).
 */
import {
  DECISION_EVENT_TYPES,
  decide as decideAny,
  fold,
  type AuditEvent,
  type Decision,
  type DecisionEvent,
  type LedgerCommand,
  type LedgerEvent,
  type OperationState,
  type Refusal,
  type RefusalCode,
} from '../../../src/ledger/index.js';

export type DeepPartial<T> = T extends readonly (infer U)[]
  ? readonly DeepPartial<U>[]
  : T extends object
    ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A decision of any decider; `result` is typed loosely so tests can match any answer. */
export type AnyDecision = Decision<unknown>;

/** Routes a command to its decider (the domain's own dispatcher). */
export function decide(command: LedgerCommand, state: OperationState): AnyDecision {
  return decideAny(command, state);
}

const AUDIT_TYPES = new Set<AuditEvent['type']>(['DuplicateClaimPrevented', 'PayloadConflictDetected']);

function describeDecision(d: AnyDecision): string {
  return d.kind === 'refused'
    ? `refused ${d.refusal.code}: ${d.refusal.message}`
    : `accepted with ${d.events.length} event(s) ${JSON.stringify(d.events.map((e) => e.type))}`;
}

/**
 * A refusal is read-only for the holder (docs/domain.md#rules-every-store-and-handler-keeps):
 * - it never appends OperationClaimed (never takes over or renews a lease) anywhere;
 * - with no decision events, the state folded after it equals the state before, lease included;
 * - the only refusals that may record decision events are the two documented ones:
 *   `OutcomeUnknown(lease_expired)` when a claim finds a lease that had *already* expired over a
 *   started step, and `DuplicateEffectDetected` (which changes nothing but the duplicate list).
 * In every case the attempt, fingerprint, payload, steps and recorded outcome stay as they were.
 */
export function assertRefusalIsReadOnly(
  before: OperationState,
  after: OperationState,
  command: LedgerCommand,
  decision: AnyDecision,
): void {
  expect(decision.kind).toBe('refused');
  const all: LedgerEvent[] = [...decision.events, ...decision.audit];
  expect(all.map((e) => e.type)).not.toContain('OperationClaimed');
  expect(after.attempt).toBe(before.attempt);
  if (decision.events.some((e) => e.type === 'ApprovalRequested')) {
    // The third documented exception: a first claim under an approval policy records its intent.
    expect(before.status).toBe('none');
    expect(after.status).toBe('awaiting_approval');
    expect(after.lease).toBeNull();
    return;
  }
  expect(after.fingerprint).toBe(before.fingerprint);
  expect(after.payload).toEqual(before.payload);
  expect(after.steps).toEqual(before.steps);
  expect(after.confirmation).toEqual(before.confirmation);
  expect(after.lastError).toEqual(before.lastError);
  if (decision.events.length === 0) {
    expect(after).toEqual(before);
    expect(after.lease).toEqual(before.lease);
    return;
  }
  expect(decision.events).toHaveLength(1);
  const [event] = decision.events as [DecisionEvent];
  if (event.type === 'OutcomeUnknown') {
    expect(command.type).toBe('ClaimOperation');
    expect(event.data.reason).toBe('lease_expired');
    // The lease it ends had already run out on the server clock: nothing live was shortened.
    expect(before.status).toBe('in_progress');
    expect(before.lease).not.toBeNull();
    expect(before.lease!.expiresAt).toBeLessThanOrEqual(command.now);
    expect(after.status).toBe('unknown');
  } else if (event.type === 'DuplicateEffectDetected') {
    expect(after).toEqual({
      ...before,
      duplicateEffects: [...before.duplicateEffects, expect.anything()],
      updatedAt: event.data.at,
    });
  } else {
    throw new Error(`a refusal must not record ${event.type}`);
  }
}

export class DeciderOutcome {
  constructor(
    readonly given: readonly LedgerEvent[],
    readonly command: LedgerCommand,
    readonly before: OperationState,
    readonly decision: AnyDecision,
    /** fold(given + decision.events): the state after the decision is appended. */
    readonly after: OperationState,
  ) {}

  /** Accepted, with exactly these decision events (complete or partial). */
  then(expected: readonly DeepPartial<DecisionEvent>[]): this {
    if (this.decision.kind !== 'accepted') {
      throw new Error(`expected an accepted decision, got ${describeDecision(this.decision)}`);
    }
    expect(this.decision.events).toHaveLength(expected.length);
    expect(this.decision.events).toMatchObject(expected as object[]);
    return this;
  }

  /** Accepted and nothing written to either stream; the state is unchanged. */
  thenNothingHappened(): this {
    this.then([]);
    expect(this.decision.audit).toEqual([]);
    expect(this.after).toEqual(this.before);
    return this;
  }

  /** Refused with `code` (and the refusal fields given); checks the refusal is read-only. */
  thenRefused(code: RefusalCode, refusal: DeepPartial<Refusal> = {}): this {
    if (this.decision.kind !== 'refused') {
      throw new Error(`expected refusal ${code}, got ${describeDecision(this.decision)}`);
    }
    expect(this.decision.refusal.code).toBe(code);
    expect(this.decision.refusal.message).toEqual(expect.any(String));
    expect(this.decision.refusal).toMatchObject(refusal);
    assertRefusalIsReadOnly(this.before, this.after, this.command, this.decision);
    return this;
  }

  /** Exactly these decision events — for refusals that record one (e.g. DuplicateEffectDetected). */
  thenEvents(expected: readonly DeepPartial<DecisionEvent>[]): this {
    expect(this.decision.events).toHaveLength(expected.length);
    expect(this.decision.events).toMatchObject(expected as object[]);
    return this;
  }

  /** Exactly these companion-stream (audit) events. */
  thenAudit(expected: readonly DeepPartial<AuditEvent>[]): this {
    expect(this.decision.audit).toHaveLength(expected.length);
    expect(this.decision.audit).toMatchObject(expected as object[]);
    return this;
  }

  /** The accepted result (claim answer, worker answer or resolution answer). */
  thenResult(expected: object): this {
    if (this.decision.kind !== 'accepted') {
      throw new Error(`expected an accepted decision, got ${describeDecision(this.decision)}`);
    }
    expect(this.decision.result).toMatchObject(expected);
    return this;
  }

  /** The state folded after appending the decision events. */
  thenState(expected: DeepPartial<OperationState>): this {
    expect(this.after).toMatchObject(expected as object);
    return this;
  }
}

function checkEveryDecision(command: LedgerCommand, before: OperationState, decision: AnyDecision): void {
  for (const e of decision.events) {
    if (!DECISION_EVENT_TYPES.has(e.type)) throw new Error(`${e.type} is not a decision-stream event`);
  }
  for (const e of decision.audit) {
    if (!AUDIT_TYPES.has(e.type)) throw new Error(`${e.type} is not an audit-stream event`);
  }
  const expectedId =
    before.operationId ??
    (command.type === 'ClaimOperation' || command.type === 'SupersedeRevision' ? command.operationId : null);
  for (const e of [...decision.events, ...decision.audit]) {
    expect(e.data.at).toBe(new Date(command.now).toISOString());
    expect(e.data.tenant).toBe(e.data.key.tenant);
    expect(e.data.operationId).toBe(expectedId);
  }
}

export interface When {
  when(command: LedgerCommand): DeciderOutcome;
}

/** Starts a specification from the history of the operation's streams. */
export function given(events: readonly LedgerEvent[]): When {
  return {
    when(command: LedgerCommand): DeciderOutcome {
      const before = fold(events);
      const snapshot = structuredClone(before);
      const decision = decide(command, before);
      expect(before).toEqual(snapshot); // decide never mutates the state it was given
      checkEveryDecision(command, before, decision);
      const after = fold([...events, ...decision.events]);
      return new DeciderOutcome(events, command, before, decision, after);
    },
  };
}
