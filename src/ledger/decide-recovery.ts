import type { SubmitEvidence, SupersedeRevision, SweepExpiredLease } from './commands.js';
import { accept, refuse, type Decision } from './decision.js';
import { eventBaseOf, withBase } from './event-base.js';
import { unfinishedSteps, type OperationState } from './operation-state.js';

/** Answer of a recovery command: the state it led to, and whether anything was recorded. */
export interface RecoveryResult {
  readonly state: OperationState['status'];
  readonly recorded: boolean;
}

/**
 * Evidence from a recovery worker for an Unknown operation: found → Confirmed (reference and the
 * key fields checked are recorded), not found → Released for retry, inconclusive → stays Unknown
 * (the review queue keeps it). Refused `not-unknown` in any other state, and
 * `operator-only-recovery` when the action's policy routes recovery to operators.
 */
export function decideEvidence(cmd: SubmitEvidence, state: OperationState): Decision<RecoveryResult> {
  if (state.status === 'none') return refuse({ code: 'not-found', message: 'no operation with this id' });
  if (cmd.recoveryMode === 'operator_only') {
    return refuse({
      code: 'operator-only-recovery',
      message: `the policy of action ${state.key!.action} routes unknown outcomes to an operator: use resolve`,
      state: state.status,
    });
  }
  if (state.status !== 'unknown') {
    return refuse({
      code: 'not-unknown',
      message: `evidence is taken only while the outcome is unknown; this operation is ${state.status}`,
      state: state.status,
    });
  }
  const next = cmd.verdict === 'found' ? 'confirmed' : cmd.verdict === 'not_found' ? 'released' : 'unknown';
  return accept({ state: next, recorded: true }, [
    {
      type: 'RecoveryEvidenceSubmitted',
      data: withBase(eventBaseOf(state, cmd.now), {
        verdict: cmd.verdict,
        destinationRef: cmd.verdict === 'found' ? cmd.destinationRef : null,
        checkedFields: cmd.checkedFields,
        actor: cmd.actor,
        note: cmd.note,
      }),
    },
  ]);
}

/**
 * The lease sweeper's decision for one operation it found with an expired lease (docs/domain.md
 * "Leases and fencing tokens"): a started-but-unfinished step → `OutcomeUnknown(lease_expired)`
 * ("inspect, don't retry"); nothing unfinished → `OperationReleased` by the sweeper. If the holder renewed,
 * finished, or someone reclaimed since the sweeper read its list, nothing is recorded.
 */
export function decideSweep(cmd: SweepExpiredLease, state: OperationState): Decision<RecoveryResult> {
  const lease = state.lease;
  if (state.status !== 'in_progress' || !lease || cmd.now < lease.expiresAt) {
    return accept({ state: state.status, recorded: false });
  }
  const unfinished = unfinishedSteps(state);
  if (unfinished.length > 0) {
    return accept({ state: 'unknown', recorded: true }, [
      {
        type: 'OutcomeUnknown',
        data: withBase(eventBaseOf(state, cmd.now), {
          reason: 'lease_expired',
          cause: 'lease_expired_after_step',
          detail: 'found by the lease sweeper',
          unfinishedSteps: unfinished,
        }),
      },
    ]);
  }
  return accept({ state: 'released', recorded: true }, [
    {
      type: 'OperationReleased',
      data: withBase(eventBaseOf(state, cmd.now), {
        reason: 'lease expired before any step started',
        releasedBy: 'sweeper',
      }),
    },
  ]);
}

/**
 * Marks an older revision superseded by a newer one (docs/domain.md "Approvals, replays and
 * amendments"). Works on a stream that does not exist yet (the older revision was never claimed),
 * never rewrites history (it appends), and is a no-op when an equal or newer revision already superseded it.
 */
export function decideSupersede(cmd: SupersedeRevision, state: OperationState): Decision<RecoveryResult> {
  if (state.supersededBy && state.supersededBy.revision >= cmd.byRevision) {
    return accept({ state: state.status, recorded: false });
  }
  return accept({ state: state.status, recorded: true }, [
    {
      type: 'OperationSuperseded',
      data: {
        operationId: cmd.operationId,
        key: cmd.key,
        tenant: cmd.key.tenant,
        attempt: state.attempt,
        at: new Date(cmd.now).toISOString(),
        byRevision: cmd.byRevision,
        byOperationId: cmd.byOperationId,
      },
    },
  ]);
}
