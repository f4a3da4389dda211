/**
 * The optional features a ledger lists in `GET /health` as `capabilities`, so a client asks once
 * instead of learning from 400 answers (docs/api.md "Health, metrics and OpenAPI"):
 * `claim-start-step` (a claim's `startStep`), `confirm-complete-step` (a confirm's
 * `completeStep`), `claim-request-id` (a claim's `claimRequestId`), `claims-batch`
 * (`POST /v1/claims/batch`), `step-not-performed` (`POST …/steps/{step}/not-performed`).
 * Names are only ever added; a feature removed would be a new API version.
 */
export const LEDGER_CAPABILITIES = [
  'claim-start-step',
  'confirm-complete-step',
  'claim-request-id',
  'claims-batch',
  'step-not-performed',
] as const;

/** One name of {@link LEDGER_CAPABILITIES}. */
export type LedgerCapability = (typeof LEDGER_CAPABILITIES)[number];
