import type { OperationContext } from '../worker/operation-context.js';

/**
 * `req.idempotency` in a guarded handler: the key, and `step` — the SDK's `op.step` — which
 * records that an effect started before `fn` runs, so a crash after it is answered 409
 * `awaiting-recovery` instead of running the handler again.
 */
export interface IdempotencyContext {
  /** The `Idempotency-Key` value, or null when the request carries none. */
  readonly key: string | null;
  /** The ledger's operation id, or null when unguarded. */
  readonly operationId: string | null;
  /**
   * Runs `fn` once per key as step `name`, passing the provider idempotency key to send on to
   * the provider (null when unguarded). A step completed by an earlier attempt returns its
   * recorded result without calling `fn`. @throws fn's error; LeaseLostError.
   */
  step<T>(name: string, fn: (providerKey: string | null) => T | Promise<T>): Promise<T>;
}

/** The context of a request without a key (`required: false`): steps just run. */
export const UNGUARDED: IdempotencyContext = Object.freeze({
  key: null,
  operationId: null,
  step: async <T>(_name: string, fn: (providerKey: string | null) => T | Promise<T>) => fn(null),
});

/** The context of a guarded run, over the SDK's operation context. */
export function guardedContext(key: string, op: OperationContext): IdempotencyContext {
  return {
    key,
    operationId: op.operationId,
    step: (name, fn) => op.step(name, fn),
  };
}
