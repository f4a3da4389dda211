import { canonicalKey, uuidV5InOperationNamespace, type OperationKey } from './operation-key.js';
import type { ValidationIssue } from './validation-issue.js';

/** Step names: 1–128 characters of letters, digits, `.`, `_`, `:` and `-` (they appear in URLs). */
const STEP_NAME = /^[A-Za-z0-9._:-]{1,128}$/;

/** Checks a step name; returns the problem (naming `field`, default `step`) or null. */
export function stepNameIssue(step: string, field = 'step'): ValidationIssue | null {
  return STEP_NAME.test(step)
    ? null
    : { field, message: `${field} must be 1-128 characters of A-Z a-z 0-9 . _ : -` };
}

/**
 * The idempotency key a worker sends to the external provider for one step: UUID v5 of
 * `<canonical key>#step:<step>` under the operationId namespace. Deterministic, so it is the same
 * for every attempt of the operation — a provider that honours idempotency keys (Stripe, most
 * payment and messaging APIs) turns a retried call into a replay.
 */
export function providerIdempotencyKey(key: OperationKey, step: string): string {
  return uuidV5InOperationNamespace(`${canonicalKey(key)}#step:${step}`);
}
