import type { Checked } from '../checked.js';
import type {
  AcknowledgeDuplicateEffect,
  ApproveOperation,
  LedgerCommand,
  RejectOperation,
  RenewLease,
  ReplayOperation,
  SubmitEvidence,
} from '../commands.js';
import type { ActionPolicy } from './action-policy.js';
import { leaseUnderPolicy } from './lease-bound.js';

/**
 * A command on an existing operation whose full form depends on the action's policy, as plain
 * data without the server time and without what the policy supplies: operator actions (replay
 * takes `replayAllowed`), recovery evidence (takes `recoveryMode`) and lease renewal (bounded by
 * `maxLeaseMs`).
 */
export type PolicyCommandRequest =
  | Omit<ApproveOperation, 'now'>
  | Omit<RejectOperation, 'now'>
  | Omit<ReplayOperation, 'now' | 'replayAllowed'>
  | Omit<AcknowledgeDuplicateEffect, 'now'>
  | Omit<SubmitEvidence, 'now' | 'recoveryMode'>
  | Omit<RenewLease, 'now'>;

/**
 * The ledger command of `request` under `policy` at `now` (epoch ms, server clock). A renewal
 * above the policy's `maxLeaseMs` is rejected `invalid` naming `leaseMs` (the bound claims use).
 */
export function commandUnderPolicy(
  request: PolicyCommandRequest,
  policy: ActionPolicy,
  now: number,
): Checked<LedgerCommand> {
  switch (request.type) {
    case 'RenewLease': {
      const lease = leaseUnderPolicy(request.leaseMs, policy, null);
      return lease.ok ? { ok: true, value: { ...request, now, leaseMs: lease.value } } : lease;
    }
    case 'ReplayOperation':
      return { ok: true, value: { ...request, now, replayAllowed: policy.replayAllowed } };
    case 'SubmitEvidence':
      return { ok: true, value: { ...request, now, recoveryMode: policy.recoveryMode } };
    default:
      return { ok: true, value: { ...request, now } };
  }
}
