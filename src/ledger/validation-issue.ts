import type { FieldIssue } from '@operation-ledger/protocol';

/**
 * A field-level validation problem, as reported in problem+json `errors[]` (docs/api.md "Problem
 * details"; the protocol's `FieldIssue`): `field` is the dotted path, e.g. `key.subject`.
 */
export type ValidationIssue = FieldIssue;

/** Either a value or the list of problems that prevented it. */
export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };
