import { KEY_TEXT_PARTS, type OperationKey } from './operation-key.js';

/** A part made only of RFC 3986 unreserved characters: its encoding is itself. */
const UNRESERVED_ONLY = /^[A-Za-z0-9\-._~]*$/;

/**
 * RFC 3986 percent-encoding of everything outside *unreserved* (ALPHA / DIGIT / "-" / "." / "_" /
 * "~"), over the UTF-8 bytes. encodeURIComponent leaves `!'()*` alone, so those are encoded here.
 */
function percentEncode(part: string): string {
  if (UNRESERVED_ONLY.test(part)) return part;
  return encodeURIComponent(part).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * Canonical string of a key: `tenant/source/action/subject@revision`, parts percent-encoded
 * outside RFC 3986 unreserved (docs/api.md "Operation identity"). Validate the key first
 * ({@link keyIssues}).
 */
export function canonicalKey(key: OperationKey): string {
  return `${KEY_TEXT_PARTS.map((p) => percentEncode(key[p])).join('/')}@${key.revision}`;
}
