import type { ConfirmOperation } from './commands.js';
import { accept, refuse, type Decision } from './decision.js';
import { eventBaseOf, withBase } from './event-base.js';
import type { DecisionEvent } from './events.js';
import type { OperationState } from './operation-state.js';
import { notFound, notInProgress, ok, stale, type WorkerResult } from './worker-result.js';

/**
 * Confirmation rules (docs/domain.md "Duplicate effects"): the holder confirms an operation in
 * progress; a confirmation while Unknown — from the current or a stale attempt — is accepted as
 * late evidence; a repeat with the recorded reference is a no-op; a different reference is a
 * duplicate effect, recorded. A stale token on an operation that is not Unknown is refused unless
 * it brings a second reference.
 *
 * Two refinements:
 * - An operation an operator confirmed with `destinationRef: null` (reference unknown) takes the
 *   reference from the late confirmation of the attempt the operator confirmed: recorded as
 *   `DestinationReferenceRecorded` (source `late_confirmation`), not as a duplicate effect.
 * - `completeStep` (round-trip shortcut): a confirmation that records something (the holder's,
 *   late evidence, a missing reference filled in) records `StepCompleted` with it, in one
 *   decision. The step must have been started by the confirming attempt, else `step-not-started`
 *   as `CompleteStep` answers; a step already completed adds nothing. A repeat of the recorded
 *   confirmation records nothing: it is answered `alreadyRecorded` when the named step is
 *   completed (a lost answer to a shortcut confirm), else `not-in-progress`, as `CompleteStep`
 *   answers once the operation is no longer in progress.
 */
export function decideConfirm(cmd: ConfirmOperation, state: OperationState): Decision<WorkerResult> {
  if (state.status === 'none') return refuse(notFound);
  const current = cmd.fencingToken === state.attempt;
  if (cmd.fencingToken > state.attempt || cmd.fencingToken < 1) return stale(state, cmd.fencingToken);

  // While Unknown — or released by an operator who found nothing — a confirmation from the
  // attempt in question is evidence that the effect did happen.
  const lateEvidence =
    state.status === 'unknown' ||
    (state.status === 'released' && current && state.resolution?.resolution === 'not_found');
  if (lateEvidence) return confirmWith(cmd, state, 'late_confirmation');
  if (state.status === 'confirmed') return confirmAgain(cmd, state, current);
  if (!current) return stale(state, cmd.fencingToken);
  if (state.status !== 'in_progress') return notInProgress(state);
  return confirmWith(cmd, state, 'worker');
}

/** `OperationConfirmed`, preceded by the shortcut's `StepCompleted` when it names one. */
function confirmWith(
  cmd: ConfirmOperation,
  state: OperationState,
  source: 'worker' | 'late_confirmation',
): Decision<WorkerResult> {
  const completed = stepCompletion(cmd, state);
  if (!Array.isArray(completed)) return completed;
  return accept(ok('confirmed', false), [
    ...completed,
    {
      type: 'OperationConfirmed',
      data: withBase(eventBaseOf(state, cmd.now), {
        destinationRef: cmd.destinationRef,
        outputs: cmd.outputs,
        source,
        reportedByAttempt: cmd.fencingToken,
      }),
    },
  ]);
}

/**
 * The `StepCompleted` event the confirmation's `completeStep` adds ([] when it names none or the
 * step is already completed), or the `step-not-started` refusal.
 */
function stepCompletion(
  cmd: ConfirmOperation,
  state: OperationState,
): DecisionEvent[] | Decision<WorkerResult> {
  const named = cmd.completeStep;
  if (!named) return [];
  const step = state.steps[named.step];
  if (!step || step.attempt !== cmd.fencingToken) {
    return refuse({
      code: 'step-not-started',
      message: `step ${named.step} was not started in attempt ${cmd.fencingToken}`,
      state: state.status,
    });
  }
  if (step.status === 'completed') return [];
  return [
    {
      type: 'StepCompleted',
      data: withBase(eventBaseOf(state, cmd.now), { step: named.step, outputs: named.outputs }),
    },
  ];
}

/** A confirmation of an operation already confirmed: a repeat, a missing reference, or a second effect. */
function confirmAgain(
  cmd: ConfirmOperation,
  state: OperationState,
  current: boolean,
): Decision<WorkerResult> {
  const recorded = state.confirmation?.destinationRef ?? null;
  const incoming = cmd.destinationRef;
  if (incoming === null || incoming === recorded) {
    if (!current) return stale(state, cmd.fencingToken);
    // Nothing to record: a step still open here can no longer be completed (the complete
    // route's answer); after a lost answer to a shortcut confirm the step is completed.
    const named = cmd.completeStep ? state.steps[cmd.completeStep.step] : undefined;
    if (cmd.completeStep && named?.status !== 'completed') return notInProgress(state);
    return accept(ok('confirmed', true));
  }
  if (recorded === null && current && state.confirmation?.via === 'operator') {
    const completed = stepCompletion(cmd, state);
    if (!Array.isArray(completed)) return completed;
    return accept(ok('confirmed', false), [
      ...completed,
      {
        type: 'DestinationReferenceRecorded',
        data: withBase(eventBaseOf(state, cmd.now), {
          destinationRef: incoming,
          source: 'late_confirmation',
          actor: null,
          reason: null,
          reportedByAttempt: cmd.fencingToken,
        }),
      },
    ]);
  }
  // A second reference already recorded: answered as a duplicate effect again (a retrying
  // worker must not read success), but recorded only once.
  const knownDuplicate = state.duplicateEffects.some((d) => d.ref === incoming);
  return refuse(
    {
      code: 'duplicate-effect',
      message: `the operation was confirmed with reference ${JSON.stringify(recorded)}; ${JSON.stringify(incoming)} is a second effect`,
      state: state.status,
      recordedRef: recorded,
      incomingRef: incoming,
    },
    knownDuplicate
      ? []
      : [
          {
            type: 'DuplicateEffectDetected',
            data: withBase(eventBaseOf(state, cmd.now), {
              recordedRef: recorded,
              incomingRef: incoming,
              reportedByAttempt: cmd.fencingToken,
            }),
          },
        ],
  );
}
