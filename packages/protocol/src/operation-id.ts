import { canonicalKey } from './canonical-key.js';
import type { OperationKey } from './operation-key.js';
import { uuidV5 } from './uuid-v5.js';

/**
 * operationId = UUID v5 (RFC 9562 §5.5) of the canonical key under `OPERATION_ID_NAMESPACE`
 * (docs/api.md "Operation identity"). The key is taken as it is: validate it first.
 */
export function operationIdFor(key: OperationKey): string {
  return uuidV5(canonicalKey(key));
}

/**
 * The idempotency key a worker sends to the provider for one step: UUID v5 of
 * `<canonical key>#step:<step>`, the same for every attempt, so a retried call is a replay.
 * Validate the key first.
 */
export function providerKeyFor(key: OperationKey, step: string): string {
  return uuidV5(`${canonicalKey(key)}#step:${step}`);
}
