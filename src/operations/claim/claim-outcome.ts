import type { ClaimResult, InputRejection } from '../../ledger/index.js';
import type { Executed } from '../decide-and-append.js';

/** A claim's key names a tenant the caller's API key is not bound to (answered 403). */
export interface ForbiddenTenant {
  readonly kind: 'forbidden-tenant';
  readonly tenant: string;
}

/**
 * What a claim comes to: why it was not decided (input, tenant), or the decision taken on the
 * operation `operationId` — acquired, replayed or refused (a refusal is a value, never thrown).
 */
export type ClaimOutcome =
  InputRejection | ForbiddenTenant | (Executed<ClaimResult> & { readonly operationId: string });

/**
 * One item of a batch: its claim's outcome, or `failed` when the store was unavailable or too
 * contended for it (an EventStoreUnavailableError or ContentionError, answered 503 in its slot).
 */
export type BatchItemOutcome = ClaimOutcome | { readonly kind: 'failed'; readonly error: unknown };
