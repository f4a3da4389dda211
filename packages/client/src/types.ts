/**
 * The ledger's wire vocabulary as the SDK sees it, from `@operation-ledger/protocol` (the HTTP
 * contract is in the repository's README and `docs/api.md`). Field names are the server's; times
 * are ISO 8601 strings, durations are milliseconds.
 */
export type {
  AcquiredClaim,
  ClaimAnswer,
  ClaimRequest,
  CompletedStep,
  EventActor,
  HistoryEvent,
  Json,
  OperationHistory,
  OperationRow,
  OperationState,
  OperationStatus,
  ReplayedClaim,
  ReplayedOutcome,
  ReviewItem,
  ReviewReason,
  StepStatus,
  UnknownCause,
  WorkerAnswer,
} from '@operation-ledger/protocol';

/**
 * The business identity of an operation: `{tenant, source, action, subject, revision?}`
 * (revision defaults to 1). Text parts are case-sensitive, NFC, 1–256 bytes of UTF-8.
 */
export type { OperationKeyInput as OperationKey } from '@operation-ledger/protocol';
