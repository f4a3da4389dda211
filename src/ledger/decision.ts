import type { AuditEvent, DecisionEvent } from './events.js';
import type { Refusal } from './refusal.js';

/**
 * What `decide` answers. `events` go to the decision stream (appended with the expected revision
 * the state was folded at); `audit` to the companion audit stream (appended with `any`).
 * A refusal may still carry events: a claim that finds an expired lease over a started step records
 * `OutcomeUnknown`; a second destination reference records `DuplicateEffectDetected`.
 */
export type Decision<Result> =
  | {
      readonly kind: 'accepted';
      readonly events: readonly DecisionEvent[];
      readonly audit: readonly AuditEvent[];
      readonly result: Result;
    }
  | {
      readonly kind: 'refused';
      readonly events: readonly DecisionEvent[];
      readonly audit: readonly AuditEvent[];
      readonly refusal: Refusal;
    };

/** An accepted decision. */
export function accept<R>(
  result: R,
  events: readonly DecisionEvent[] = [],
  audit: readonly AuditEvent[] = [],
): Decision<R> {
  return { kind: 'accepted', events, audit, result };
}

/** A refused decision. */
export function refuse<R>(
  refusal: Refusal,
  events: readonly DecisionEvent[] = [],
  audit: readonly AuditEvent[] = [],
): Decision<R> {
  return { kind: 'refused', events, audit, refusal };
}
