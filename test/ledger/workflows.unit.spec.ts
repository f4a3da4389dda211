// Recovery and operator workflows in the decider: approvals, replay, duplicate-effect
// acknowledgement, recovery evidence, the lease sweeper, lease renewal and superseded revisions.
import type { LedgerCommand } from '../../src/ledger/index.js';
import { given } from './support/decider-spec.js';
import {
  EFFECT_STEP,
  KEY,
  LEASE_MS,
  OPERATION_ID,
  OTHER_PAYLOAD,
  T0,
  at,
  claim,
  claimed,
  duplicateEffect,
  history,
  iso,
  stepCompleted,
  stepStarted,
} from './support/fixtures.js';

const op = (type: string, now: number, extra: object = {}) =>
  ({ type, now, actor: 'ops:maria', reason: 'checked with finance', ...extra }) as unknown as LedgerCommand;
const approvalClaim = (now: number) => ({ ...claim(now), policy: { requireApproval: true, version: 3 } });
const approvalRequested = () => given([]).when(approvalClaim(T0)).decision.events;

describe('approval before the first claim', () => {
  it('a first claim under an approval policy records the intent and is refused awaiting-approval', () => {
    given([])
      .when(approvalClaim(T0))
      .thenRefused('awaiting-approval')
      .thenEvents([{ type: 'ApprovalRequested', data: { attempt: 0, policyVersion: 3, key: KEY } }])
      .thenState({ status: 'awaiting_approval', attempt: 0, lease: null });
  });

  it('a repeat while waiting is refused and audited; a different payload is a conflict', () => {
    given(approvalRequested())
      .when(approvalClaim(at(1)))
      .thenRefused('awaiting-approval')
      .thenAudit([{ type: 'DuplicateClaimPrevented', data: { answer: 'awaiting_approval' } }]);
    given(approvalRequested())
      .when(claim(at(1), { payload: OTHER_PAYLOAD }))
      .thenRefused('payload-conflict');
  });

  it('approve → the next claim acquires attempt 1; reject → claims replay the rejection', () => {
    given(approvalRequested())
      .when(op('ApproveOperation', at(5)))
      .then([{ type: 'OperationApproved', data: { actor: 'ops:maria', reason: 'checked with finance' } }])
      .thenState({ status: 'approved', approval: { decision: 'approved', actor: 'ops:maria' } });
    const approved = [
      ...approvalRequested(),
      ...given(approvalRequested()).when(op('ApproveOperation', at(5))).decision.events,
    ];
    given(approved)
      .when(approvalClaim(at(6)))
      .then([{ type: 'OperationClaimed', data: { attempt: 1, reason: 'after_approval' } }]);

    const rejected = [
      ...approvalRequested(),
      ...given(approvalRequested()).when(op('RejectOperation', at(5))).decision.events,
    ];
    given(rejected)
      .when(approvalClaim(at(6)))
      .thenResult({
        kind: 'replayed',
        state: 'rejected',
        outcome: { approval: { decision: 'rejected', actor: 'ops:maria' } },
      })
      .thenEvents([]);
  });

  it('approve or reject anything not awaiting approval is refused', () => {
    given(history.inProgress())
      .when(op('ApproveOperation', at(5)))
      .thenRefused('not-awaiting-approval');
    given(history.confirmed())
      .when(op('RejectOperation', at(5)))
      .thenRefused('not-awaiting-approval');
  });
});

describe('operator replay of a final failure', () => {
  it('replays where the policy allows: released, then claimable as attempt 2', () => {
    given(history.failedFinal())
      .when(op('ReplayOperation', at(9), { replayAllowed: true }))
      .then([{ type: 'OperationReplayed', data: { actor: 'ops:maria', reason: 'checked with finance' } }])
      .thenState({ status: 'released' });
  });

  it('refuses where the policy forbids replay, and for anything but a final failure', () => {
    given(history.failedFinal())
      .when(op('ReplayOperation', at(9), { replayAllowed: false }))
      .thenRefused('replay-not-allowed');
    given(history.failedRetryable())
      .when(op('ReplayOperation', at(9), { replayAllowed: true }))
      .thenRefused('not-final-failure');
    given(history.confirmed())
      .when(op('ReplayOperation', at(9), { replayAllowed: true }))
      .thenRefused('not-final-failure');
  });
});

describe('acknowledging duplicate effects', () => {
  const withDuplicate = () => [...history.confirmed('INV-1'), duplicateEffect(1, at(7), 'INV-1', 'INV-2', 1)];

  it('acknowledges the open duplicate; a second acknowledgement is refused', () => {
    const ack = given(withDuplicate())
      .when(op('AcknowledgeDuplicateEffect', at(8), { refs: null }))
      .then([{ type: 'DuplicateEffectAcknowledged', data: { refs: ['INV-2'], actor: 'ops:maria' } }])
      .thenState({ status: 'confirmed', duplicateEffects: [{ ref: 'INV-2', acknowledged: true }] });
    given([...withDuplicate(), ...ack.decision.events])
      .when(op('AcknowledgeDuplicateEffect', at(9), { refs: null }))
      .thenRefused('no-duplicate-effect');
  });

  it('refuses when there is none, or the named ref is not a duplicate', () => {
    given(history.confirmed())
      .when(op('AcknowledgeDuplicateEffect', at(8), { refs: null }))
      .thenRefused('no-duplicate-effect');
    given(withDuplicate())
      .when(op('AcknowledgeDuplicateEffect', at(8), { refs: ['INV-9'] }))
      .thenRefused('no-duplicate-effect');
  });
});

describe('recovery evidence', () => {
  const evidence = (verdict: string, extra: object = {}) =>
    ({
      type: 'SubmitEvidence',
      now: at(30),
      verdict,
      destinationRef: verdict === 'found' ? 'INV-7' : null,
      checkedFields: { externalRef: 'order:812', amount: 120 },
      actor: 'recovery-bot',
      note: null,
      recoveryMode: 'worker_lookup',
      ...extra,
    }) as unknown as LedgerCommand;

  it('found → confirmed with the reference and the fields checked', () => {
    given(history.unknown())
      .when(evidence('found'))
      .then([
        {
          type: 'RecoveryEvidenceSubmitted',
          data: { verdict: 'found', destinationRef: 'INV-7', checkedFields: { externalRef: 'order:812' } },
        },
      ])
      .thenState({ status: 'confirmed', confirmation: { destinationRef: 'INV-7', via: 'recovery' } });
  });

  it('not found → released for retry; inconclusive → stays unknown, recorded', () => {
    given(history.unknown()).when(evidence('not_found')).thenState({ status: 'released' });
    given(history.unknown())
      .when(evidence('inconclusive'))
      .then([{ type: 'RecoveryEvidenceSubmitted', data: { verdict: 'inconclusive', destinationRef: null } }])
      .thenState({ status: 'unknown', lastEvidence: { verdict: 'inconclusive', actor: 'recovery-bot' } });
  });

  it('refused outside Unknown, and when the policy routes recovery to operators', () => {
    given(history.confirmed()).when(evidence('found')).thenRefused('not-unknown');
    given(history.unknown())
      .when(evidence('found', { recoveryMode: 'operator_only' }))
      .thenRefused('operator-only-recovery');
  });
});

describe('lease sweeper', () => {
  const sweep = (now: number) => ({ type: 'SweepExpiredLease', now }) as unknown as LedgerCommand;

  it('expired lease over a started step → OutcomeUnknown(lease_expired)', () => {
    given(history.stepRunning())
      .when(sweep(T0 + LEASE_MS))
      .then([{ type: 'OutcomeUnknown', data: { reason: 'lease_expired', unfinishedSteps: [EFFECT_STEP] } }])
      .thenState({ status: 'unknown', lease: null });
  });

  it('expired lease with nothing unfinished → released by the sweeper', () => {
    given([claimed(1, T0), stepStarted('prep', 1, at(1)), stepCompleted('prep', 1, at(2))])
      .when(sweep(T0 + LEASE_MS))
      .then([{ type: 'OperationReleased', data: { releasedBy: 'sweeper' } }])
      .thenState({ status: 'released' });
  });

  it('a live, renewed or finished lease is left alone', () => {
    given(history.inProgress())
      .when(sweep(T0 + LEASE_MS - 1))
      .thenNothingHappened();
    given(history.confirmed())
      .when(sweep(T0 + 10 * LEASE_MS))
      .thenNothingHappened();
    const renewed = given(history.inProgress())
      .when({ type: 'RenewLease', fencingToken: 1, leaseMs: 60_000, now: at(20) } as LedgerCommand)
      .then([{ type: 'LeaseRenewed', data: { leaseMs: 60_000, leaseExpiresAt: iso(at(80)) } }]);
    given([...history.inProgress(), ...renewed.decision.events])
      .when(sweep(T0 + LEASE_MS))
      .thenNothingHappened();
  });

  it('renewal with a stale token is refused and changes nothing', () => {
    given([...history.failedRetryable(), claimed(2, at(10))])
      .when({ type: 'RenewLease', fencingToken: 1, leaseMs: 60_000, now: at(20) } as LedgerCommand)
      .thenRefused('stale-token');
  });
});

describe('superseded revisions', () => {
  const supersede = (byRevision: number, now = at(40)) =>
    ({
      type: 'SupersedeRevision',
      now,
      key: KEY,
      operationId: OPERATION_ID,
      byRevision,
      byOperationId: `rev-${byRevision}`,
    }) as unknown as LedgerCommand;

  it('marks a never-claimed revision; its later claim is refused superseded and acquires nothing', () => {
    const events = given([])
      .when(supersede(2))
      .then([{ type: 'OperationSuperseded', data: { byRevision: 2, attempt: 0 } }]).decision.events;
    given(events)
      .when(claim(at(50)))
      .thenRefused('superseded', { supersededBy: 2 })
      .thenEvents([]);
  });

  it('never rewrites a confirmed history: it appends, and the outcome stays', () => {
    given(history.confirmed('INV-1'))
      .when(supersede(2))
      .then([{ type: 'OperationSuperseded' }])
      .thenState({
        status: 'confirmed',
        confirmation: { destinationRef: 'INV-1' },
        supersededBy: { revision: 2 },
      });
  });

  it('is a no-op when an equal or newer revision already superseded it', () => {
    const by3 = given([]).when(supersede(3)).decision.events;
    given(by3).when(supersede(2)).thenNothingHappened();
    given(by3).when(supersede(3)).thenNothingHappened();
    given(by3)
      .when(supersede(4))
      .then([{ type: 'OperationSuperseded', data: { byRevision: 4 } }]);
  });
});
