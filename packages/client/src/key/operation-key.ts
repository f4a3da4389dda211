import {
  canonicalKey as canonicalKeyOf,
  keyIssues,
  operationIdFor,
  providerKeyFor,
  type FieldIssue,
  type OperationKey as ValidKey,
} from '@operation-ledger/protocol';
import { InvalidKeyError } from '../errors.js';
import type { OperationKey } from '../types.js';

/**
 * The key rules are the ledger's own, from `@operation-ledger/protocol` (docs/guide.md "Operation
 * identity"): a non-empty string of at most 256 bytes of UTF-8 per part, no control or invisible
 * format characters, no unpaired surrogates, no white space at either end, Unicode NFC. Nothing is
 * trimmed or normalised: normalise with `s.normalize('NFC')` before building the key.
 */
export {
  MAX_KEY_PART_BYTES,
  MAX_REVISION,
  keyIssues,
  keyPartIssue,
  stepNameIssue,
} from '@operation-ledger/protocol';

/** A field at fault, as the ledger names it in a 400's `errors`. */
export type KeyIssue = FieldIssue;

/**
 * The key with `revision` filled in, after the ledger's checks.
 * @throws InvalidKeyError listing every field at fault (the ledger would answer 400 `invalid-key`).
 */
export function validateKey(key: OperationKey): ValidKey {
  const issues = keyIssues(key);
  if (issues.length > 0) throw new InvalidKeyError(issues);
  return {
    tenant: key.tenant,
    source: key.source,
    action: key.action,
    subject: key.subject,
    revision: key.revision ?? 1,
  };
}

/**
 * The canonical key `tenant/source/action/subject@revision`, each part percent-encoded outside
 * RFC 3986 unreserved (docs/guide.md "Operation identity"). @throws InvalidKeyError.
 */
export function canonicalKey(key: OperationKey): string {
  return canonicalKeyOf(validateKey(key));
}

/**
 * The operationId the ledger gives this key: UUID v5 of the canonical key under namespace
 * `63eeae26-aca5-40f1-b1c3-d04d32d0e365`. Computed locally, no request. @throws InvalidKeyError.
 */
export function operationIdOf(key: OperationKey): string {
  return operationIdFor(validateKey(key));
}

/**
 * The provider idempotency key the ledger hands out for `step` of this key's operation (UUID v5
 * of `<canonical key>#step:<step>`); the same for every attempt. @throws InvalidKeyError.
 */
export function providerKeyOf(key: OperationKey, step: string): string {
  return providerKeyFor(validateKey(key), step);
}
