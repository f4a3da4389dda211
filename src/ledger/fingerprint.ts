import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/** A JSON value as the ledger stores it (no undefined, functions or non-finite numbers). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue };

/**
 * Payload fingerprint: SHA-256 (lowercase hex, 64 chars) of the RFC 8785 JSON Canonicalization
 * Scheme form of the payload (via the maintained `canonicalize` library). Member order, white
 * space and number spelling (`1` vs `1.0`) do not change it; any changed value or array order does.
 * @throws Error when the payload cannot be canonicalised (e.g. a non-finite number).
 */
export function payloadFingerprint(payload: JsonValue): string {
  const canonical = canonicalize(payload);
  if (canonical === undefined) throw new Error('payload cannot be canonicalised as JSON');
  return createHash('sha256').update(canonical, 'utf8').digest('hex');
}
