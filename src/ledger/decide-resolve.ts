import type { RecordDestinationReference, ResolveOperation } from './commands.js';
import { accept, refuse, type Decision } from './decision.js';
import { eventBaseOf, withBase } from './event-base.js';
import type { Resolution } from './events.js';
import type { OperationState } from './operation-state.js';
import type { ValidationIssue } from './validation-issue.js';

/** Answer of an accepted resolution or reference: the state it led to. */
export interface ResolveResult {
  readonly state: OperationState['status'];
  /** RecordDestinationReference only: the same reference was already recorded; nothing new. */
  readonly alreadyRecorded?: boolean;
}

/**
 * The input rule of a resolution (docs/api.md "Recovery and operator workflows", mirroring
 * evidence `found`): `confirmed` needs the reference found at the destination. `destinationRef`
 * is `undefined` when the request left it out, `null` when the operator said explicitly that the
 * reference is unknown (the required `reason` then says why) — only a left-out one is refused.
 * @returns the issue naming `destinationRef`, or null.
 */
export function resolveRequestIssue(
  resolution: Resolution,
  destinationRef: string | null | undefined,
): ValidationIssue | null {
  if (resolution !== 'confirmed' || destinationRef !== undefined) return null;
  return {
    field: 'destinationRef',
    message:
      'destinationRef is required when resolution is confirmed; send null (with the reason) if the reference is unknown',
  };
}

const RESOLVED_STATE = { confirmed: 'confirmed', not_found: 'released', abandoned: 'abandoned' } as const;

/**
 * An operator resolves an Unknown operation (docs/domain.md "Unknown outcomes and recovery"):
 * `confirmed` (found at the destination, with its reference as evidence) → Confirmed; `not_found`
 * → Released (may be claimed again); `abandoned` → Abandoned (replayed to later claims). Any other state is refused `not-unknown`.
 * A differing `requestedActor` is recorded next to `actor`.
 */
export function decideResolve(cmd: ResolveOperation, state: OperationState): Decision<ResolveResult> {
  if (state.status === 'none') return refuse({ code: 'not-found', message: 'no operation with this id' });
  if (state.status !== 'unknown') {
    return refuse({
      code: 'not-unknown',
      message: `only an operation whose outcome is unknown can be resolved; this one is ${state.status}`,
      state: state.status,
    });
  }
  return accept({ state: RESOLVED_STATE[cmd.resolution] }, [
    {
      type: 'OperationResolved',
      data: withBase(eventBaseOf(state, cmd.now), {
        resolution: cmd.resolution,
        destinationRef: cmd.resolution === 'confirmed' ? cmd.destinationRef : null,
        reason: cmd.reason,
        actor: cmd.actor,
        ...(cmd.requestedActor !== undefined ? { requestedActor: cmd.requestedActor } : {}),
      }),
    },
  ]);
}

/**
 * An operator records the destination reference of a confirmed operation whose reference is
 * unknown (null), e.g. after `resolve confirmed` with `destinationRef: null`: one
 * `DestinationReferenceRecorded` (actor, reason) — a correction of the record, not a second
 * effect. Refused `not-confirmed` when the operation is not confirmed, and
 * `reference-already-recorded` (with `recordedRef`, `incomingRef`) when another reference is
 * recorded; the same reference again is answered `alreadyRecorded` and records nothing.
 */
export function decideRecordReference(
  cmd: RecordDestinationReference,
  state: OperationState,
): Decision<ResolveResult> {
  if (state.status === 'none') return refuse({ code: 'not-found', message: 'no operation with this id' });
  if (state.status !== 'confirmed') {
    return refuse({
      code: 'not-confirmed',
      message: `only a confirmed operation can take a destination reference; this one is ${state.status}`,
      state: state.status,
    });
  }
  const recorded = state.confirmation?.destinationRef ?? null;
  if (recorded === cmd.destinationRef) return accept({ state: 'confirmed', alreadyRecorded: true });
  if (recorded !== null) {
    return refuse({
      code: 'reference-already-recorded',
      message: `the operation already has the reference ${JSON.stringify(recorded)}; a different one is a second effect (confirm reports it)`,
      state: state.status,
      recordedRef: recorded,
      incomingRef: cmd.destinationRef,
    });
  }
  return accept({ state: 'confirmed', alreadyRecorded: false }, [
    {
      type: 'DestinationReferenceRecorded',
      data: withBase(eventBaseOf(state, cmd.now), {
        destinationRef: cmd.destinationRef,
        source: 'operator',
        actor: cmd.actor,
        reason: cmd.reason,
        ...(cmd.requestedActor !== undefined ? { requestedActor: cmd.requestedActor } : {}),
        reportedByAttempt: null,
      }),
    },
  ]);
}
