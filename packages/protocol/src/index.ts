/**
 * The ledger's protocol, shared by the server, the SDK, the CLI and the console: the operation
 * key's rules and canonical form, the operationId rule, problem codes and the wire types. Plain
 * TypeScript with no dependency and no platform module, so it runs in Node and in browsers alike.
 */
export { canonicalKey } from './canonical-key.js';
export { LEDGER_CAPABILITIES, type LedgerCapability } from './capabilities.js';
export {
  KEY_TEXT_PARTS,
  MAX_KEY_PART_BYTES,
  MAX_REVISION,
  keyIssues,
  keyPartIssue,
  type FieldIssue,
  type KeyTextPart,
  type OperationKey,
  type OperationKeyInput,
} from './operation-key.js';
export { operationIdFor, providerKeyFor } from './operation-id.js';
export { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE, type Problem } from './problem.js';
export { PROBLEMS, PROBLEM_STATUS, type ProblemCode } from './problem-codes.js';
export { stepNameIssue } from './step-name.js';
export { OPERATION_ID_NAMESPACE, uuidV5 } from './uuid-v5.js';
export type * from './wire/claims.js';
export type * from './wire/follow-ups.js';
export type * from './wire/json.js';
export {
  OPERATION_STATES,
  REVIEW_REASONS,
  type OperationState,
  type ReviewReason,
} from './wire/operation-state.js';
export { RECONCILIATION_CATEGORIES } from './wire/reconciliation.js';
export type * from './wire/reconciliation.js';
export type * from './wire/read-models.js';
export type * from './wire/read-model-lists.js';
