/**
 * The optional features this ledger accepts, listed in `GET /health` as `capabilities`
 * (docs/api.md "Health, metrics and OpenAPI"). Names are only ever added.
 */
export const LEDGER_CAPABILITIES: readonly string[] = [
  'claim-start-step',
  'confirm-complete-step',
  'claim-request-id',
  'claims-batch',
  'step-not-performed',
];
