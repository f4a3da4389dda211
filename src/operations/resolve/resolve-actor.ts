import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';

/** Who resolved an operation, as recorded in `OperationResolved`. */
export interface ResolveActor {
  /** The API key holder's name: the actor is never taken from the body alone. */
  readonly actor: string;
  /** The body's `actor`, kept for the record when it differs from the key's name. */
  readonly requestedActor?: string;
}

/**
 * The actor of an operator action: the key's holder; with auth disabled, the body's `actor` or
 * `anonymous`.
 */
export function resolveActor(caller: Caller, requested: string | undefined): ResolveActor {
  if (caller.keyId === ANONYMOUS_CALLER.keyId) return { actor: requested ?? caller.name };
  if (requested === undefined || requested === caller.name) return { actor: caller.name };
  return { actor: caller.name, requestedActor: requested };
}
