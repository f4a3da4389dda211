/** A field-level validation problem, as reported in problem+json `errors[]` (docs/api.md "Problem details"). */
export interface ValidationIssue {
  /** Dotted path of the offending field, e.g. `key.subject`. */
  readonly field: string;
  readonly message: string;
}

/** Either a value or the list of problems that prevented it. */
export type Validated<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly issues: readonly ValidationIssue[] };
