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
