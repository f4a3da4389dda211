/**
 * @operation-ledger/client — the worker SDK of Operation Ledger. Start with
 * `new LedgerClient({ baseUrl, token }).runOnce(key, payload, job)`; see README.md.
 */
export { LedgerClient, type LedgerClientOptions, type MakeRunOnceOptions } from './client.js';
export * from './errors.js';
export { errorFromProblem, retryAfterMsOf, toProblem } from './problem.js';
export type * from './types.js';
export {
  Transport,
  sleep,
  type FetchLike,
  type HttpResult,
  type RequestOptions,
  type TransportOptions,
} from './http/transport.js';
export { DEFAULT_RETRY, type RetryOptions } from './http/retry-policy.js';
export { opPath, paginate, tenantPath, type Page, type PageOptions } from './http/routes.js';
export { Capabilities, type LedgerFeature } from './http/capabilities.js';
export { OperationsApi, type AsOf, type OperationFilter } from './http/operations-api.js';
export { ReportsApi, type RangeFilter, type ReviewFilter } from './http/reports-api.js';
export { OperatorApi, type Evidence, type Resolution } from './http/operator-api.js';
export { PoliciesApi, type PolicyChange } from './http/policies-api.js';
export { ProjectionsApi } from './http/projections-api.js';
export {
  ReconciliationApi,
  RECONCILIATION_CATEGORIES,
  type ReconciliationCategory,
  type ReconciliationItem,
  type ReconciliationItemsPage,
  type ReconciliationOptions,
  type ReconciliationRun,
  type ReconciliationStatus,
  type ReconciliationTotals,
  type ReconciliationUpload,
  type SourceIntentOptions,
} from './http/reconciliation-api.js';
export { WorkerApi, refusesField, type ConfirmRequest, type WorkerApiOptions } from './http/worker-api.js';
export { MAX_BATCH_CLAIMS, type BatchClaimResult } from './worker/claim-batcher.js';
export {
  canonicalKey,
  keyIssues,
  keyPartIssue,
  operationIdOf,
  providerKeyOf,
  stepNameIssue,
  validateKey,
  MAX_KEY_PART_BYTES,
  MAX_REVISION,
  type KeyIssue,
} from './key/operation-key.js';
export { OPERATION_ID_NAMESPACE, uuidV5 } from '@operation-ledger/protocol';
export { OperationContext, OperationClosedError } from './worker/operation-context.js';
export { LeasePresumedLostError } from './worker/lease-keeper.js';
export { NOT_SENT_CODES, provesNotSent } from './worker/not-sent.js';
export { reportFor, type ErrorClass, type FailedAttempt, type JobReport } from './worker/outcome-mapping.js';
export {
  DEFAULT_LEASE_MS,
  type Job,
  type JobResult,
  type RunOptions,
  type RunOutcome,
  type RunResult,
} from './worker/run-options.js';
export type { ItemReport, RunManyOptions } from './worker/run-many.js';
export type { Feed, FeedEvent, FeedFilter, SubscribeOptions } from './read/sse.js';
export type {
  LookupResult,
  RecoverOptions,
  RecoveryReport,
  RecoveryRoutes,
  UnknownOperation,
} from './recovery/recover.js';
export { IdempotencyGuard, type Captured, type GuardOutcome } from './idempotent-http/idempotency-guard.js';
export type { IdempotencyContext } from './idempotent-http/idempotency-context.js';
export {
  DEFAULT_KEPT_HEADERS,
  EXPIRY_HEADER,
  REPLAYED_HEADER,
  type IdempotencyOptions,
  type RequestFacts,
} from './idempotent-http/idempotency-options.js';
export { readIdempotencyKey, type IdempotencyKeyHeader } from './idempotent-http/idempotency-key-header.js';
export type { HttpAnswer } from './idempotent-http/http-answer.js';

export {
  retryDelayMs,
  verdictFor,
  UnusableMessageError,
  type AckedOutcome,
  type RetryBackoff,
  type Verdict,
} from './consumers/verdict.js';
export type { ConsumerOptions, OperationOf } from './consumers/message-runner.js';
