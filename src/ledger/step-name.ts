import { providerKeyFor } from '@operation-ledger/protocol';
import type { OperationKey } from './operation-key.js';

/** Step names: 1–128 characters of `A-Z a-z 0-9 . _ : -` (the protocol's rule; they appear in URLs). */
export { stepNameIssue } from '@operation-ledger/protocol';

/**
 * The idempotency key a worker sends to the external provider for one step: UUID v5 of
 * `<canonical key>#step:<step>` under the operationId namespace (the protocol's
 * `providerKeyFor`). Deterministic, so it is the same for every attempt of the operation — a
 * provider that honours idempotency keys (Stripe, most payment and messaging APIs) turns a retried
 * call into a replay.
 */
export function providerIdempotencyKey(key: OperationKey, step: string): string {
  return providerKeyFor(key, step);
}
