import { keyIssues, type KeyTextPart } from '@operation-ledger/protocol';
import type { OperationKey } from './operation-key.js';
import type { Validated, ValidationIssue } from './validation-issue.js';

/**
 * Checks one text part of a key (the protocol's rules, docs/domain.md "Operation key"): required,
 * a non-empty string of at most 256 bytes of UTF-8, no control, invisible format or unpaired
 * surrogate characters, no white space at either end, Unicode NFC (refused, never normalised).
 */
export { keyPartIssue } from '@operation-ledger/protocol';

/**
 * Validates untrusted input into an {@link OperationKey}. `revision` defaults to 1 and must be an
 * integer in 1..`MAX_REVISION`. Returns every problem found, each naming its field.
 */
export function parseOperationKey(input: unknown): Validated<OperationKey> {
  const issues: readonly ValidationIssue[] = keyIssues(input);
  if (issues.length > 0) return { ok: false, issues };
  const raw = input as Record<KeyTextPart | 'revision', unknown>;
  return {
    ok: true,
    value: {
      tenant: raw.tenant as string,
      source: raw.source as string,
      action: raw.action as string,
      subject: raw.subject as string,
      revision: raw.revision === undefined ? 1 : (raw.revision as number),
    },
  };
}
