import {
  KEY_TEXT_PARTS,
  MAX_KEY_PART_BYTES,
  MAX_REVISION,
  type KeyTextPart,
  type OperationKey,
} from './operation-key.js';
import type { Validated, ValidationIssue } from './validation-issue.js';

/**
 * Unicode control (Cc) and format (Cf) characters: Cf covers invisible characters such as the
 * zero-width space, the BOM and bidi overrides, which would let `ORD-9` and an identical-looking
 * `ORD-9\u200B` become two operations.
 */
const CONTROL = /[\p{Cc}\p{Cf}]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Unicode White_Space at either end (spaces, tabs, NBSP, ideographic space, …). */
const EDGE_SPACE = /^\p{White_Space}|\p{White_Space}$/u;

/**
 * Checks one text part of a key. Rules (docs/domain.md "Operation key"):
 * - required, a string, non-empty;
 * - at most {@link MAX_KEY_PART_BYTES} bytes of UTF-8;
 * - no control or invisible format characters (Unicode Cc, Cf), no unpaired surrogates;
 * - no leading or trailing white space (refused, never trimmed: `ORD-9 ` is not `ORD-9`);
 * - Unicode NFC. A non-NFC spelling (e.g. `e` + U+0301) is refused rather than normalised, so the
 *   ledger never silently alters a key and never lets two spellings become two operations.
 *   Clients normalise with `s.normalize('NFC')`.
 * Case is significant; compatibility look-alikes (full-width letters) are distinct keys.
 */
export function keyPartIssue(part: KeyTextPart, value: unknown): ValidationIssue | null {
  const field = `key.${part}`;
  if (value === undefined || value === null) return { field, message: `${part} is required` };
  if (typeof value !== 'string') return { field, message: `${part} must be a string` };
  if (value.length === 0) return { field, message: `${part} must not be empty` };
  if (Buffer.byteLength(value, 'utf8') > MAX_KEY_PART_BYTES) {
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
  return null;
}

/**
 * Validates untrusted input into an {@link OperationKey}. `revision` defaults to 1 and must be an
 * integer in 1..{@link MAX_REVISION}. Returns every problem found, each naming its field.
 */
export function parseOperationKey(input: unknown): Validated<OperationKey> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, issues: [{ field: 'key', message: 'key must be an object' }] };
  }
  const raw = input as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
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
  const unknownParts = Object.keys(raw).filter(
    (k) => k !== 'revision' && !(KEY_TEXT_PARTS as readonly string[]).includes(k),
  );
  for (const k of unknownParts) issues.push({ field: `key.${k}`, message: `unknown key part ${k}` });
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    value: {
      tenant: raw.tenant as string,
      source: raw.source as string,
      action: raw.action as string,
      subject: raw.subject as string,
      revision: revision as number,
    },
  };
}
