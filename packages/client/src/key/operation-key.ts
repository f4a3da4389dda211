import { InvalidKeyError } from '../errors.js';
import type { OperationKey } from '../types.js';
import { uuidV5 } from './uuid-v5.js';

/** The four text parts of a key, in canonical order. */
export const KEY_TEXT_PARTS = ['tenant', 'source', 'action', 'subject'] as const;
/** Longest part, bytes of UTF-8. */
export const MAX_KEY_PART_BYTES = 256;
/** Largest revision. */
export const MAX_REVISION = 2_147_483_647;

/** A field at fault, as the ledger names it in a 400's `errors`. */
export interface KeyIssue {
  readonly field: string;
  readonly message: string;
}

const CONTROL = /[\p{Cc}\p{Cf}]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const EDGE_SPACE = /^\p{White_Space}|\p{White_Space}$/u;

/**
 * Checks one text part with the ledger's rules and messages (docs/guide.md "Operation identity"):
 * non-empty string, ≤ 256 bytes of UTF-8, no control or invisible format characters (Unicode
 * Cc/Cf), no unpaired surrogates, no leading/trailing white space, Unicode NFC. Nothing is
 * trimmed or normalised: normalise with `s.normalize('NFC')` before building the key.
 */
export function keyPartIssue(part: string, value: unknown): KeyIssue | null {
  const field = `key.${part}`;
  if (value === undefined || value === null) return { field, message: `${part} is required` };
  if (typeof value !== 'string') return { field, message: `${part} must be a string` };
  if (value.length === 0) return { field, message: `${part} must not be empty` };
  if (Buffer.byteLength(value, 'utf8') > MAX_KEY_PART_BYTES) {
    return { field, message: `${part} must be at most ${MAX_KEY_PART_BYTES} bytes of UTF-8` };
  }
  if (CONTROL.test(value))
    return { field, message: `${part} must not contain control or invisible format characters` };
  if (LONE_SURROGATE.test(value)) return { field, message: `${part} must not contain unpaired surrogates` };
  if (EDGE_SPACE.test(value)) return { field, message: `${part} must not start or end with white space` };
  if (value.normalize('NFC') !== value) {
    return { field, message: `${part} must be in Unicode NFC (normalise with String.normalize('NFC'))` };
  }
  return null;
}

/** Every problem of a key, each naming its field exactly as the ledger's 400 `invalid-key` does. */
export function keyIssues(input: unknown): KeyIssue[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return [{ field: 'key', message: 'key must be an object' }];
  }
  const raw = input as Record<string, unknown>;
  const issues: KeyIssue[] = [];
  for (const part of KEY_TEXT_PARTS) {
    const issue = keyPartIssue(part, raw[part]);
    if (issue) issues.push(issue);
  }
  const revision = raw.revision === undefined ? 1 : raw.revision;
  if (
    typeof revision !== 'number' ||
    !Number.isInteger(revision) ||
    revision < 1 ||
    revision > MAX_REVISION
  ) {
    issues.push({ field: 'key.revision', message: `revision must be an integer from 1 to ${MAX_REVISION}` });
  }
  for (const k of Object.keys(raw)) {
    if (k !== 'revision' && !(KEY_TEXT_PARTS as readonly string[]).includes(k)) {
      issues.push({ field: `key.${k}`, message: `unknown key part ${k}` });
    }
  }
  return issues;
}

/**
 * The key with `revision` filled in, after the ledger's checks.
 * @throws InvalidKeyError listing every field at fault (the ledger would answer 400 `invalid-key`).
 */
export function validateKey(key: OperationKey): Required<OperationKey> {
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

/** RFC 3986 percent-encoding of everything outside *unreserved* (`!'()*` included), over UTF-8. */
function percentEncode(part: string): string {
  if (/^[A-Za-z0-9\-._~]*$/.test(part)) return part;
  return encodeURIComponent(part).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The canonical key `tenant/source/action/subject@revision`, each part percent-encoded outside
 * RFC 3986 unreserved (docs/guide.md "Operation identity"). @throws InvalidKeyError.
 */
export function canonicalKey(key: OperationKey): string {
  const k = validateKey(key);
  return `${KEY_TEXT_PARTS.map((p) => percentEncode(k[p])).join('/')}@${k.revision}`;
}

/**
 * The operationId the ledger gives this key: UUID v5 of the canonical key under namespace
 * `63eeae26-aca5-40f1-b1c3-d04d32d0e365`. Computed locally, no request. @throws InvalidKeyError.
 */
export function operationIdOf(key: OperationKey): string {
  return uuidV5(canonicalKey(key));
}

/**
 * The provider idempotency key the ledger hands out for `step` of this key's operation (UUID v5
 * of `<canonical key>#step:<step>`); the same for every attempt. @throws InvalidKeyError.
 */
export function providerKeyOf(key: OperationKey, step: string): string {
  return uuidV5(`${canonicalKey(key)}#step:${step}`);
}

const STEP_NAME = /^[A-Za-z0-9._:-]{1,128}$/;

/** The ledger's step-name rule: 1–128 characters of `A-Z a-z 0-9 . _ : -` (they appear in URLs). */
export function stepNameIssue(step: string): KeyIssue | null {
  return STEP_NAME.test(step)
    ? null
    : { field: 'step', message: 'step must be 1-128 characters of A-Z a-z 0-9 . _ : -' };
}
