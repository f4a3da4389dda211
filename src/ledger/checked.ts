import type { ValidationIssue } from './validation-issue.js';

/**
 * Why a request was not decided at all: its input is invalid (answered 400 naming the fields;
 * `invalid-key` when every issue is in the key) or its payload too large (413).
 */
export type InputRejection =
  | { readonly kind: 'invalid'; readonly issues: readonly ValidationIssue[] }
  | { readonly kind: 'payload-too-large'; readonly payloadBytes: number; readonly maxPayloadBytes: number };

/** A value, or the rejection that prevented it. */
export type Checked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly rejection: InputRejection };

/** An `invalid` rejection of the given issues. */
export function invalid<T>(...issues: ValidationIssue[]): Checked<T> {
  return { ok: false, rejection: { kind: 'invalid', issues } };
}
