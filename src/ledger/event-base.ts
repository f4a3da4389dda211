import type { EventBase } from './events.js';
import type { OperationState } from './operation-state.js';

/**
 * The fields every event about an existing operation carries: its id, key, tenant, the attempt
 * (default: the current one) and the server time `now` (epoch ms) as ISO 8601 UTC.
 * Only for states folded from at least one event (key and id are known).
 */
export function eventBaseOf(state: OperationState, now: number, attempt: number = state.attempt): EventBase {
  const key = state.key!;
  return {
    operationId: state.operationId!,
    key,
    tenant: key.tenant,
    attempt,
    at: new Date(now).toISOString(),
  };
}

/**
 * `base` with `fields` added (a field of both takes the value from `fields`), as
 * `{ ...base, ...fields }` would give. Not written as that spread: on Node 20 (V8 11) a small
 * object spread into a literal that then gets more properties takes a slow path, most of a
 * claim's decision time (docs/decisions.md "Claim path").
 */
export function withBase<B extends object, F extends object>(base: B, fields: F): Omit<B, keyof F> & F {
  return Object.assign(base, fields);
}
