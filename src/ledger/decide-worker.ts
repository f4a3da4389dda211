import type {
  CompleteStep,
  FailOperation,
  MarkStepNotPerformed,
  ReleaseOperation,
  RenewLease,
  ReportUnknownOutcome,
  StartStep,
  WorkerCommand,
} from './commands.js';
import { accept, refuse, type Decision } from './decision.js';
import { eventBaseOf, withBase } from './event-base.js';
import { anyStepStartedThisAttempt, unfinishedSteps, type OperationState } from './operation-state.js';
import { providerIdempotencyKey } from './step-name.js';
import { decideConfirm } from './decide-confirm.js';
import { notFound, notInProgress, ok, stale, type WorkerResult } from './worker-result.js';

/**
 * Refusal common to fenced commands that need the holder: unknown key, stale token, or an
 * operation no longer in progress. Returns null when the command may proceed.
 */
function holderCheck(cmd: WorkerCommand, state: OperationState): Decision<WorkerResult> | null {
  if (state.status === 'none') return refuse(notFound);
  if (cmd.fencingToken !== state.attempt) return stale(state, cmd.fencingToken);
  if (state.status !== 'in_progress') return notInProgress(state);
  return null;
}

function decideStartStep(cmd: StartStep, state: OperationState): Decision<WorkerResult> {
  const refused = holderCheck(cmd, state);
  if (refused) return refused;
  const pik = providerIdempotencyKey(state.key!, cmd.step);
  const step = state.steps[cmd.step];
  if (step && step.attempt === state.attempt && step.status === 'started') {
    return accept(ok(state.status, true, { providerIdempotencyKey: pik }));
  }
  return accept(ok('in_progress', false, { providerIdempotencyKey: pik }), [
    {
      type: 'StepStarted',
      data: withBase(eventBaseOf(state, cmd.now), { step: cmd.step, providerIdempotencyKey: pik }),
    },
  ]);
}

function decideCompleteStep(cmd: CompleteStep, state: OperationState): Decision<WorkerResult> {
  const refused = holderCheck(cmd, state);
  if (refused) return refused;
  const notStarted = notStartedRefusal(cmd.step, state);
  if (notStarted) return notStarted;
  const step = state.steps[cmd.step]!;
  if (step.status === 'completed') return accept(ok(state.status, true));
  return accept(ok('in_progress', false), [
    {
      type: 'StepCompleted',
      data: withBase(eventBaseOf(state, cmd.now), { step: cmd.step, outputs: cmd.outputs }),
    },
  ]);
}

/**
 * The holder states a started step of its attempt was not performed (its request never left).
 * Refused: stale token (`stale-token`), a step this attempt did not start (`step-not-started`),
 * a completed step (`outcome-uncertain`: its effect is recorded). A repeat is a no-op.
 */
function decideStepNotPerformed(cmd: MarkStepNotPerformed, state: OperationState): Decision<WorkerResult> {
  const refused = holderCheck(cmd, state);
  if (refused) return refused;
  const notStarted = notStartedRefusal(cmd.step, state);
  if (notStarted) return notStarted;
  const step = state.steps[cmd.step]!;
  if (step.status === 'not_performed') return accept(ok(state.status, true));
  if (step.status === 'completed') {
    return refuse({
      code: 'outcome-uncertain',
      message: `step ${cmd.step} was completed in this attempt: its effect is recorded, it cannot be marked not performed`,
      state: state.status,
    });
  }
  return accept(ok('in_progress', false), [
    {
      type: 'StepNotPerformed',
      data: withBase(eventBaseOf(state, cmd.now), { step: cmd.step, reason: cmd.reason }),
    },
  ]);
}

/** `step-not-started` when the current attempt did not start `step`, else null. */
function notStartedRefusal(step: string, state: OperationState): Decision<WorkerResult> | null {
  const started = state.steps[step];
  if (started && started.attempt === state.attempt) return null;
  return refuse({
    code: 'step-not-started',
    message: `step ${step} was not started in attempt ${state.attempt}`,
    state: state.status,
  });
}

/** A retryable failure is refused once a step of this attempt was started (`outcome-uncertain`). */
function decideFail(cmd: FailOperation, state: OperationState): Decision<WorkerResult> {
  if (state.status === 'failed' && cmd.fencingToken === state.attempt && state.retryable === cmd.retryable) {
    return accept(ok('failed', true));
  }
  const refused = holderCheck(cmd, state);
  if (refused) return refused;
  if (cmd.retryable && anyStepStartedThisAttempt(state)) {
    return refuse({
      code: 'outcome-uncertain',
      message:
        'a step was started in this attempt, so its effect may have happened: report an unknown outcome (or confirm) instead of a retryable failure',
      state: state.status,
    });
  }
  return accept(ok('failed', false), [
    {
      type: 'OperationFailed',
      data: withBase(eventBaseOf(state, cmd.now), { error: cmd.error, retryable: cmd.retryable }),
    },
  ]);
}

/** Release is allowed only before any step of this attempt was started. */
function decideRelease(cmd: ReleaseOperation, state: OperationState): Decision<WorkerResult> {
  if (state.status === 'released' && cmd.fencingToken === state.attempt) {
    return accept(ok('released', true));
  }
  const refused = holderCheck(cmd, state);
  if (refused) return refused;
  if (anyStepStartedThisAttempt(state)) {
    return refuse({
      code: 'outcome-uncertain',
      message:
        'a step was started in this attempt: report an unknown outcome (or confirm) instead of releasing',
      state: state.status,
    });
  }
  return accept(ok('released', false), [
    { type: 'OperationReleased', data: withBase(eventBaseOf(state, cmd.now), { reason: cmd.reason }) },
  ]);
}

function decideUnknown(cmd: ReportUnknownOutcome, state: OperationState): Decision<WorkerResult> {
  if (state.status === 'unknown' && cmd.fencingToken === state.attempt) {
    return accept(ok('unknown', true));
  }
  const refused = holderCheck(cmd, state);
  if (refused) return refused;
  return accept(ok('unknown', false), [
    {
      type: 'OutcomeUnknown',
      data: withBase(eventBaseOf(state, cmd.now), {
        reason: 'reported_timeout',
        cause: cmd.timedOut === true ? 'reported_timeout' : 'reported_by_worker',
        detail: cmd.reason,
        unfinishedSteps: unfinishedSteps(state),
      }),
    },
  ]);
}

/** Heartbeat: the current holder extends its lease from now; refused once someone else moved on. */
function decideRenew(cmd: RenewLease, state: OperationState): Decision<WorkerResult> {
  const refused = holderCheck(cmd, state);
  if (refused) return refused;
  const leaseExpiresAt = new Date(cmd.now + cmd.leaseMs).toISOString();
  return accept(ok('in_progress', false, { leaseExpiresAt }), [
    {
      type: 'LeaseRenewed',
      data: withBase(eventBaseOf(state, cmd.now), { leaseMs: cmd.leaseMs, leaseExpiresAt }),
    },
  ]);
}

/** Decides a fenced worker command against the folded state. Pure. */
export function decideWorkerCommand(cmd: WorkerCommand, state: OperationState): Decision<WorkerResult> {
  switch (cmd.type) {
    case 'RenewLease':
      return decideRenew(cmd, state);
    case 'StartStep':
      return decideStartStep(cmd, state);
    case 'CompleteStep':
      return decideCompleteStep(cmd, state);
    case 'ConfirmOperation':
      return decideConfirm(cmd, state);
    case 'FailOperation':
      return decideFail(cmd, state);
    case 'ReleaseOperation':
      return decideRelease(cmd, state);
    case 'ReportUnknownOutcome':
      return decideUnknown(cmd, state);
    case 'MarkStepNotPerformed':
      return decideStepNotPerformed(cmd, state);
  }
}
