import type { OperatorCommand } from './commands.js';
import { accept, refuse, type Decision } from './decision.js';
import { eventBaseOf, withBase } from './event-base.js';
import type { DecisionEvent } from './events.js';
import type { OperationState } from './operation-state.js';

/** Answer of an accepted operator action: the state it led to. */
export interface OperatorResult {
  readonly state: OperationState['status'];
}

/**
 * Operator actions (docs/domain.md "Unknown outcomes and recovery"), each with actor and reason:
 * - approve / reject an operation awaiting approval (else `not-awaiting-approval`);
 * - replay a final failure → released, claimable again — refused `replay-not-allowed` when the
 *   action's policy forbids replay ("do not replay" actions such as payments), `not-final-failure`
 *   for anything but a final failure;
 * - acknowledge duplicate effects after cleanup (`no-duplicate-effect` when none is open).
 */
export function decideOperatorCommand(cmd: OperatorCommand, state: OperationState): Decision<OperatorResult> {
  if (state.status === 'none') return refuse({ code: 'not-found', message: 'no operation with this id' });
  const action = withBase(eventBaseOf(state, cmd.now), { actor: cmd.actor, reason: cmd.reason });
  const done = (next: OperationState['status'], event: DecisionEvent) => accept({ state: next }, [event]);
  switch (cmd.type) {
    case 'ApproveOperation':
    case 'RejectOperation':
      if (state.status !== 'awaiting_approval') {
        return refuse({
          code: 'not-awaiting-approval',
          message: `only an operation awaiting approval can be approved or rejected; this one is ${state.status}`,
          state: state.status,
        });
      }
      return cmd.type === 'ApproveOperation'
        ? done('approved', { type: 'OperationApproved', data: action })
        : done('rejected', { type: 'OperationRejected', data: action });
    case 'ReplayOperation':
      if (state.status !== 'failed' || state.retryable !== false) {
        return refuse({
          code: 'not-final-failure',
          message: `only a final failure can be replayed; this operation is ${state.status}${state.status === 'failed' ? ' (retryable: claim it again)' : ''}`,
          state: state.status,
        });
      }
      if (!cmd.replayAllowed) {
        return refuse({
          code: 'replay-not-allowed',
          message: `the policy of action ${state.key!.action} forbids operator replay (a "do not replay" action): resolve the failure outside the ledger`,
          state: state.status,
        });
      }
      return done('released', { type: 'OperationReplayed', data: action });
    case 'AcknowledgeDuplicateEffect': {
      const open = state.duplicateEffects.filter((d) => !d.acknowledged).map((d) => d.ref);
      const refs = cmd.refs === null ? open : cmd.refs.filter((r) => open.includes(r));
      if (refs.length === 0) {
        return refuse({
          code: 'no-duplicate-effect',
          message: 'there is no unacknowledged duplicate effect to acknowledge',
          state: state.status,
        });
      }
      return done(state.status, { type: 'DuplicateEffectAcknowledged', data: { ...action, refs } });
    }
  }
}
