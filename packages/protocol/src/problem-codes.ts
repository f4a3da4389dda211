/**
 * Every problem code the ledger answers, with its HTTP status and fixed title (docs/api.md
 * "Problem codes"). The one code→status table: the server's answers and its OpenAPI document read
 * it; clients switch on its codes.
 */
export const PROBLEMS = {
  validation: { status: 400, title: 'The request is not valid' },
  'invalid-key': { status: 400, title: 'The operation key is not valid' },
  'invalid-json': { status: 400, title: 'The request body is not valid JSON' },
  unauthenticated: { status: 401, title: 'A valid API key is required' },
  forbidden: { status: 403, title: 'This API key lacks the required role' },
  'forbidden-tenant': { status: 403, title: 'This API key is not bound to that tenant' },
  'not-found': { status: 404, title: 'Not found' },
  'in-progress': { status: 409, title: 'Another worker holds this operation' },
  'awaiting-recovery': { status: 409, title: 'The outcome is unknown and awaits recovery' },
  'awaiting-approval': { status: 409, title: 'The operation waits for an operator approval' },
  superseded: { status: 409, title: 'A newer revision of this subject exists' },
  'stale-token': { status: 409, title: 'The fencing token is stale' },
  'not-in-progress': { status: 409, title: 'The operation is not in progress' },
  'step-not-started': { status: 409, title: 'The step was not started' },
  'outcome-uncertain': { status: 409, title: 'The outcome is uncertain' },
  'duplicate-effect': { status: 409, title: 'A second, different effect was reported' },
  'not-unknown': { status: 409, title: 'The operation is not awaiting recovery' },
  'operator-only-recovery': {
    status: 409,
    title: "The action's policy routes recovery to operators only",
  },
  'not-awaiting-approval': { status: 409, title: 'The operation is not awaiting approval' },
  'not-final-failure': { status: 409, title: 'Only a final failure can be replayed' },
  'replay-not-allowed': { status: 409, title: "The action's policy forbids replay" },
  'no-duplicate-effect': { status: 409, title: 'There is no unacknowledged duplicate effect' },
  'not-confirmed': { status: 409, title: 'The operation is not confirmed' },
  'reference-already-recorded': { status: 409, title: 'Another destination reference is recorded' },
  'policy-version-conflict': { status: 409, title: 'The policy was changed concurrently' },
  'key-revoked': { status: 409, title: 'The API key is revoked' },
  'reconciliation-not-complete': { status: 409, title: 'The reconciliation is not complete yet' },
  'reconciliation-failed': { status: 409, title: 'The reconciliation failed' },
  'not-awaiting-source': { status: 409, title: 'The reconciliation does not wait for source intents' },
  'backup-unsupported': { status: 409, title: "This ledger's store is backed up with its own tools" },
  'retention-expired': { status: 410, title: "The operation's record was compacted after its retention" },
  'request-timeout': { status: 408, title: 'The request did not arrive in time' },
  'payload-too-large': { status: 413, title: 'The request or payload is too large' },
  'record-too-large': { status: 413, title: 'An upload record is too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'payload-conflict': { status: 422, title: 'This key was used with a different payload' },
  'invalid-upload': { status: 422, title: 'The uploaded export has invalid rows' },
  'upload-interrupted': { status: 400, title: 'The upload was interrupted' },
  'upload-abandoned': { status: 409, title: 'The run was failed while its upload came in' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  internal: { status: 500, title: 'Internal error' },
  'store-unavailable': { status: 503, title: 'The event store is unavailable' },
  contention: { status: 503, title: 'Too much contention on this operation' },
  'shutting-down': { status: 503, title: 'This instance is shutting down' },
  'too-many-subscriptions': { status: 503, title: 'This instance serves the most subscriptions it allows' },
} as const satisfies Record<string, { readonly status: number; readonly title: string }>;

/** A problem code of {@link PROBLEMS}. */
export type ProblemCode = keyof typeof PROBLEMS;

/** HTTP status of each problem code. */
export const PROBLEM_STATUS: Readonly<Record<ProblemCode, number>> = Object.fromEntries(
  Object.entries(PROBLEMS).map(([code, p]) => [code, p.status]),
) as Record<ProblemCode, number>;
