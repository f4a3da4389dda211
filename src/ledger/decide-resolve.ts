import type { ResolveOperation } from './commands.js';
import { accept, refuse, type Decision } from './decision.js';
import { eventBaseOf, withBase } from './event-base.js';
import type { OperationState } from './operation-state.js';

/** Answer of an accepted resolution: the state it led to. */
export interface ResolveResult {
  readonly state: OperationState['status'];
}

const RESOLVED_STATE = { confirmed: 'confirmed', not_found: 'released', abandoned: 'abandoned' } as const;

/**
 * An operator resolves an Unknown operation (docs/domain.md "Unknown outcomes and recovery"): `confirmed` (found at the destination,
 * with its reference as evidence) → Confirmed; `not_found` → Released (may be claimed again);
 * `abandoned` → Abandoned (replayed to later claims). Any other state is refused `not-unknown`.
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
