import type { FieldIssue } from './operation-key.js';

/** Step names: 1–128 characters of letters, digits, `.`, `_`, `:` and `-` (they appear in URLs). */
const STEP_NAME = /^[A-Za-z0-9._:-]{1,128}$/;

/** Checks a step name; returns the problem (naming `field`, default `step`) or null. */
export function stepNameIssue(step: string, field = 'step'): FieldIssue | null {
  return STEP_NAME.test(step)
    ? null
    : { field, message: `${field} must be 1-128 characters of A-Z a-z 0-9 . _ : -` };
}
