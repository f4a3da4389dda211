import { utf8ByteLength } from './utf8.js';

/**
 * The business identity of an operation, validated: the intent, never the attempt (docs/domain.md
 * "Operation key"). Parts are case-sensitive strings; `revision` is an integer >= 1 (an amendment
 * is a new revision).
 */
export interface OperationKey {
  readonly tenant: string;
  readonly source: string;
  readonly action: string;
  readonly subject: string;
  readonly revision: number;
}

/** A key as a client sends it: `revision` may be left out and then means 1. */
export type OperationKeyInput = Omit<OperationKey, 'revision'> & { readonly revision?: number };

/** The four text parts, in canonical order. */
export const KEY_TEXT_PARTS = ['tenant', 'source', 'action', 'subject'] as const;
export type KeyTextPart = (typeof KEY_TEXT_PARTS)[number];

/** Longest accepted part, in UTF-8 bytes (docs/domain.md "Operation key"). */
export const MAX_KEY_PART_BYTES = 256;
/** Largest accepted revision (fits a PostgreSQL int4 and every JSON parser exactly). */
export const MAX_REVISION = 2_147_483_647;

/** A field at fault, as a 400's problem+json `errors[]` names it (docs/api.md "Problem details"). */
export interface FieldIssue {
  /** Dotted path of the offending field, e.g. `key.subject`. */
  readonly field: string;
  readonly message: string;
}

/** Unicode Cc and Cf: invisible characters would let look-alike keys become two operations. */
const CONTROL = /[\p{Cc}\p{Cf}]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Unicode White_Space at either end (spaces, tabs, NBSP, ideographic space, …). */
const EDGE_SPACE = /^\p{White_Space}|\p{White_Space}$/u;

/**
 * Parts that routes name as path segments (`/v1/tenants/{tenant}/policies/{action}`): a segment
 * `.` or `..` is removed by every URL parser, escaped or not (RFC 3986 §5.2.4, the WHATWG URL
 * Standard's single- and double-dot segments), so such a value could never be addressed.
 */
const IN_PATHS: ReadonlySet<string> = new Set(['tenant', 'action']);

/**
 * Checks one text part of a key (docs/domain.md "Operation key"): a non-empty string of at most
 * {@link MAX_KEY_PART_BYTES} UTF-8 bytes, no Cc/Cf characters or unpaired surrogates, no edge
 * white space, NFC; a tenant or action is not `.` or `..`. Refused, never normalised, so the
 * ledger never alters a key.
 */
export function keyPartIssue(part: string, value: unknown): FieldIssue | null {
  const field = `key.${part}`;
  if (value === undefined || value === null) return { field, message: `${part} is required` };
  if (typeof value !== 'string') return { field, message: `${part} must be a string` };
  if (value.length === 0) return { field, message: `${part} must not be empty` };
  if (utf8ByteLength(value) > MAX_KEY_PART_BYTES) {
    return { field, message: `${part} must be at most ${MAX_KEY_PART_BYTES} bytes of UTF-8` };
  }
  if (CONTROL.test(value))
    return { field, message: `${part} must not contain control or invisible format characters` };
  if (LONE_SURROGATE.test(value)) {
    return { field, message: `${part} must not contain unpaired surrogates` };
  }
  if (EDGE_SPACE.test(value)) {
    return { field, message: `${part} must not start or end with white space` };
  }
  if (value.normalize('NFC') !== value) {
    return { field, message: `${part} must be in Unicode NFC (normalise with String.normalize('NFC'))` };
  }
  if (IN_PATHS.has(part) && (value === '.' || value === '..')) {
    return { field, message: `${part} must not be "." or ".." (a URL path cannot name it)` };
  }
  return null;
}

/**
 * Every problem of an untrusted key, each naming its field exactly as the ledger's 400
 * `invalid-key` does; empty when the key is valid. `revision` may be absent (it means 1), else an
 * integer in 1..{@link MAX_REVISION}; any other member is refused.
 */
export function keyIssues(input: unknown): FieldIssue[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return [{ field: 'key', message: 'key must be an object' }];
  }
  const raw = input as Record<string, unknown>;
  const issues: FieldIssue[] = [];
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
