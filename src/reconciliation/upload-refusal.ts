import type { FieldError } from '../common/validation.js';
// the run's status from the protocol, not run.ts: the upload readers import this file
import type { ReconciliationStatus as RunStatus } from '@operation-ledger/protocol';

/**
 * Why an upload (a new run's destination export, or a run's source intents) was refused, as a
 * value: the service returns it and the HTTP edge answers it as problem+json
 * (http/reconciliation-http-answer.ts; docs/architecture.md "Transport — HTTP"). Whatever the
 * refusal, nothing of the upload is kept.
 */
export type UploadRefusal =
  | RunNotFound
  | InvalidQuery
  | { readonly kind: 'not-awaiting-source'; readonly id: string; readonly status: RunStatus }
  | {
      readonly kind: 'upload-abandoned';
      readonly id: string;
      readonly status: RunStatus | null;
      readonly error: string | null;
    }
  | UnsupportedMedia
  | InvalidUpload
  | UploadTooLarge
  | { readonly kind: 'record-too-large'; readonly line: number; readonly limit: string }
  | TenantBoundRefusal
  | { readonly kind: 'upload-interrupted' };

/** No run `id` in the tenant (or one in another tenant: the same answer, no existence oracle). */
export interface RunNotFound {
  readonly kind: 'run-not-found';
  readonly id: string;
}

/** Query parameters that do not go together, each named (answered 400 `validation`). */
export interface InvalidQuery {
  readonly kind: 'invalid-query';
  readonly errors: readonly FieldError[];
}

/** `Content-Type` or `Content-Encoding` (`field`) names what cannot be read; `detail` says what to send. */
export interface UnsupportedMedia {
  readonly kind: 'unsupported-media';
  readonly field: 'Content-Type' | 'Content-Encoding';
  readonly detail: string;
}

/** Rows that cannot be reconciled, each named `rows[<line>].<column>`, in the `what` upload. */
export interface InvalidUpload {
  readonly kind: 'invalid-upload';
  readonly errors: readonly FieldError[];
  readonly what: string;
}

/** The upload is past `limit` (`2 GiB (after decompression)`, `1000 rows`). */
export interface UploadTooLarge {
  readonly kind: 'upload-too-large';
  readonly limit: string;
}

/**
 * Writing the upload's next batch would take the tenant past a storage bound: `limit` (`1000
 * rows`), its `setting`, and what the tenant's runs `kept` (docs/reconciliation.md "Storage bounds").
 */
export interface TenantBoundRefusal {
  readonly kind: 'over-tenant-bound';
  readonly tenant: string;
  readonly limit: string;
  readonly setting: string;
  readonly kept: string;
}

/**
 * Carries a refusal out of a spill transaction (which must roll back) to the service, which
 * returns it as a value; it never leaves the reconciliation room.
 */
export class UploadRefusedError extends Error {
  constructor(readonly refusal: UploadRefusal) {
    super(refusal.kind);
  }
}
