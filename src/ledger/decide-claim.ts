import { withBase } from './event-base.js';
import type { ClaimOperation } from './commands.js';
import { accept, refuse, type Decision } from './decision.js';
import type { AuditEvent, ClaimReason, DecisionEvent, DuplicateAnswer, EventBase } from './events.js';
import { outcomeOf, type ReplayedOutcome } from './outcome.js';
import { unfinishedSteps, type Lease, type OperationState } from './operation-state.js';
import { providerIdempotencyKey } from './step-name.js';

/**
 * Longest wait an `in-progress` refusal suggests, ms. The holder usually finishes long before its
 * lease ends (a 30 s lease over a 200 ms job), so a waiter asks again after at most this long
 * instead of the whole lease; the lease's end is in the refusal (`leaseExpiresAt`). Each repeat
 * is one audit event, so the wait is not shorter either.
 */
export const IN_PROGRESS_RETRY_MAX_MS = 5_000;

/** A claim that acquired the operation: the worker may proceed with this fencing token. */
export interface Acquired {
  readonly kind: 'acquired';
  readonly operationId: string;
  readonly attempt: number;
  /** Equal to `attempt`; later commands must carry it. */
  readonly fencingToken: number;
  readonly leaseExpiresAt: string;
  readonly fingerprint: string;
  /**
   * Why this attempt began; `same_claim_request` when this answers a repeat of the claim request
   * that acquired it (its answer was lost), nothing recorded.
   */
  readonly reason: ClaimReason | 'same_claim_request';
  /** Steps completed by earlier attempts, with their outputs, so the worker can skip them. */
  readonly completedSteps: readonly { readonly step: string; readonly providerIdempotencyKey: string }[];
  /** The claim's `startStep`, started in the same append: the key to send the provider. */
  readonly startedStep?: { readonly name: string; readonly providerIdempotencyKey: string };
}

/** A claim of a terminal operation: the recorded outcome, replayed. */
export interface Replayed {
  readonly kind: 'replayed';
  readonly operationId: string;
  readonly state: 'confirmed' | 'failed' | 'abandoned' | 'rejected';
  readonly outcome: ReplayedOutcome;
}

export type ClaimResult = Acquired | Replayed;

function base(cmd: ClaimOperation, attempt: number): EventBase {
  return {
    operationId: cmd.operationId,
    key: cmd.key,
    tenant: cmd.key.tenant,
    attempt,
    at: new Date(cmd.now).toISOString(),
  };
}

/**
 * Acquires attempt n+1: `OperationClaimed`, and with the claim's `startStep` also `StepStarted`
 * for that step in the same decision (one append), exactly as `StartStep` would record it.
 */
function acquire(cmd: ClaimOperation, state: OperationState, reason: ClaimReason): Decision<ClaimResult> {
  const attempt = state.attempt + 1;
  const leaseExpiresAt = new Date(cmd.now + cmd.leaseMs).toISOString();
  const completedSteps = completedStepsOf(state);
  const step = cmd.startStep
    ? { name: cmd.startStep, providerIdempotencyKey: providerIdempotencyKey(cmd.key, cmd.startStep) }
    : undefined;
  const claimed: DecisionEvent = {
    type: 'OperationClaimed',
    data: withBase(base(cmd, attempt), {
      fingerprint: cmd.fingerprint,
      // The payload is kept once, with the first record; later attempts share its fingerprint.
      payload: state.payload === null ? cmd.payload : null,
      workerId: cmd.workerId,
      leaseMs: cmd.leaseMs,
      leaseExpiresAt,
      reason,
      ...(cmd.claimRequestId ? { claimRequestId: cmd.claimRequestId } : {}),
    }),
  };
  const started: DecisionEvent[] = step
    ? [
        {
          type: 'StepStarted',
          data: withBase(base(cmd, attempt), {
            step: step.name,
            providerIdempotencyKey: step.providerIdempotencyKey,
          }),
        },
      ]
    : [];
  return accept<ClaimResult>(
    {
      kind: 'acquired',
      operationId: cmd.operationId,
      attempt,
      fencingToken: attempt,
      leaseExpiresAt,
      fingerprint: cmd.fingerprint,
      reason,
      completedSteps,
      ...(step ? { startedStep: step } : {}),
    },
    [claimed, ...started],
  );
}

function completedStepsOf(state: OperationState): Acquired['completedSteps'] {
  return Object.values(state.steps)
    .filter((s) => s.status === 'completed')
    .map((s) => ({ step: s.name, providerIdempotencyKey: s.providerIdempotencyKey }));
}

/**
 * A repeat of the claim request that acquired the live lease (the client's transport retried it
 * because the answer was lost): the acquisition's answer again, from the state — same attempt and
 * fencing token, the lease's current end, the step the claim started if it is still running in
 * this attempt. Nothing is recorded: the worker is the holder, not a duplicate.
 */
function sameClaimRequest(cmd: ClaimOperation, state: OperationState, lease: Lease): Decision<ClaimResult> {
  const started = cmd.startStep ? state.steps[cmd.startStep] : undefined;
  const startedStep =
    started && started.status === 'started' && started.attempt === state.attempt
      ? { name: started.name, providerIdempotencyKey: started.providerIdempotencyKey }
      : undefined;
  return accept<ClaimResult>({
    kind: 'acquired',
    operationId: cmd.operationId,
    attempt: state.attempt,
    fencingToken: state.attempt,
    leaseExpiresAt: new Date(lease.expiresAt).toISOString(),
    fingerprint: cmd.fingerprint,
    reason: 'same_claim_request',
    completedSteps: completedStepsOf(state),
    ...(startedStep ? { startedStep } : {}),
  });
}

function duplicate(cmd: ClaimOperation, state: OperationState, answer: DuplicateAnswer): AuditEvent {
  return {
    type: 'DuplicateClaimPrevented',
    data: withBase(base(cmd, state.attempt), {
      fingerprint: cmd.fingerprint,
      workerId: cmd.workerId,
      answer,
      state: state.status,
    }),
  };
}

/**
 * Decides a claim on the operation's folded state, by the table of docs/domain.md "States and
 * transitions". `cmd` comes from `claimUnderPolicy` (claim-command.ts), which applied the input
 * and policy rules. Beyond the table:
 * - an acquiring claim that names `startStep` also starts that step (same append);
 * - a live lease acquired by this very claim request (same `claimRequestId`: its answer was lost
 *   and the client retried) → that acquisition answered again, nothing recorded;
 * - refused `in-progress` carries `retryAfterMs` (the lease's ms left, at most
 *   {@link IN_PROGRESS_RETRY_MAX_MS}) and `leaseExpiresAt`; the holder's lease is untouched.
 * Every duplicate answer is audited as `DuplicateClaimPrevented` in the companion stream.
 */
export function decideClaim(cmd: ClaimOperation, state: OperationState): Decision<ClaimResult> {
  if (state.supersededBy) {
    return refuse(
      {
        code: 'superseded',
        message: `revision ${cmd.key.revision} was superseded by revision ${state.supersededBy.revision}`,
        state: state.status,
        supersededBy: state.supersededBy.revision,
      },
      [],
      [duplicate(cmd, state, 'superseded')],
    );
  }
  if (state.archived?.afterRetention === 'refuse') {
    return refuse(
      {
        code: 'retention-expired',
        message: `the record of this operation was compacted after its retention (${state.archived.at}); the policy refuses repeats`,
        state: state.status,
      },
      [],
      [duplicate(cmd, state, 'retention_expired')],
    );
  }
  if (state.status === 'none') {
    return cmd.policy?.requireApproval ? requestApproval(cmd) : acquire(cmd, state, 'first');
  }

  if (state.fingerprint !== null && state.fingerprint !== cmd.fingerprint) {
    return refuse(
      {
        code: 'payload-conflict',
        message: 'this key was claimed with a different payload',
        existingFingerprint: state.fingerprint,
        incomingFingerprint: cmd.fingerprint,
        state: state.status,
      },
      [],
      [
        {
          type: 'PayloadConflictDetected',
          data: withBase(base(cmd, state.attempt), {
            existingFingerprint: state.fingerprint,
            incomingFingerprint: cmd.fingerprint,
            incomingPayload: cmd.payload,
            workerId: cmd.workerId,
          }),
        },
      ],
    );
  }

  switch (state.status) {
    case 'in_progress': {
      const lease = state.lease;
      if (lease && cmd.now < lease.expiresAt) {
        if (
          cmd.claimRequestId &&
          lease.claimRequestId === cmd.claimRequestId &&
          lease.attempt === state.attempt
        ) {
          return sameClaimRequest(cmd, state, lease);
        }
        return refuse(
          {
            code: 'in-progress',
            message: `another worker holds this operation until ${new Date(lease.expiresAt).toISOString()}`,
            retryAfterMs: Math.min(lease.expiresAt - cmd.now, IN_PROGRESS_RETRY_MAX_MS),
            leaseExpiresAt: new Date(lease.expiresAt).toISOString(),
            state: state.status,
          },
          [],
          [duplicate(cmd, state, 'in_progress')],
        );
      }
      const unfinished = unfinishedSteps(state);
      if (unfinished.length === 0) return acquire(cmd, state, 'after_lease_expiry');
      return refuse(
        {
          code: 'awaiting-recovery',
          message: `the lease expired after step(s) ${unfinished.join(', ')} started: the outcome is unknown`,
          state: 'unknown',
        },
        [
          {
            type: 'OutcomeUnknown',
            data: withBase(base(cmd, state.attempt), {
              reason: 'lease_expired',
              cause: 'lease_expired_after_step',
              detail: null,
              unfinishedSteps: unfinished,
            }),
          },
        ],
        [duplicate(cmd, state, 'awaiting_recovery')],
      );
    }
    case 'unknown':
      return refuse(
        {
          code: 'awaiting-recovery',
          message: 'the outcome of this operation is unknown and awaits recovery',
          state: state.status,
        },
        [],
        [duplicate(cmd, state, 'awaiting_recovery')],
      );
    case 'released':
      return acquire(cmd, state, 'after_release');
    case 'failed':
      if (state.retryable) return acquire(cmd, state, 'after_retryable_failure');
      return replay(cmd, state, 'failed');
    case 'confirmed':
      return replay(cmd, state, 'confirmed');
    case 'abandoned':
      return replay(cmd, state, 'abandoned');
    case 'awaiting_approval':
      return refuse(
        {
          code: 'awaiting-approval',
          message: 'this operation waits for an operator approval',
          state: state.status,
        },
        [],
        [duplicate(cmd, state, 'awaiting_approval')],
      );
    case 'approved':
      return acquire(cmd, state, 'after_approval');
    case 'rejected':
      return replay(cmd, state, 'rejected');
  }
}

function requestApproval(cmd: ClaimOperation): Decision<ClaimResult> {
  return refuse(
    {
      code: 'awaiting-approval',
      message: `the policy of ${cmd.key.action} requires an operator approval before the first claim proceeds`,
      state: 'awaiting_approval',
    },
    [
      {
        type: 'ApprovalRequested',
        data: withBase(base(cmd, 0), {
          fingerprint: cmd.fingerprint,
          payload: cmd.payload,
          workerId: cmd.workerId,
          policyVersion: cmd.policy?.version ?? null,
        }),
      },
    ],
  );
}

function replay(
  cmd: ClaimOperation,
  state: OperationState,
  terminal: Replayed['state'],
): Decision<ClaimResult> {
  return accept<ClaimResult>(
    { kind: 'replayed', operationId: cmd.operationId, state: terminal, outcome: outcomeOf(state) },
    [],
    [duplicate(cmd, state, 'replayed')],
  );
}
