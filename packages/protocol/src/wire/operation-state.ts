/** Every state an operation can be in (docs/api.md "States"), in the order filters list them. */
export const OPERATION_STATES = [
  'in_progress',
  'confirmed',
  'failed',
  'released',
  'unknown',
  'abandoned',
  'awaiting_approval',
  'approved',
  'rejected',
] as const;
/** A state of {@link OPERATION_STATES}. */
export type OperationState = (typeof OPERATION_STATES)[number];

/** Why an operation sits in the review queue (docs/api.md "Read models"). */
export const REVIEW_REASONS = [
  'unknown_outcome',
  'final_failure',
  'duplicate_effect',
  'awaiting_approval',
] as const;
/** A reason of {@link REVIEW_REASONS}. */
export type ReviewReason = (typeof REVIEW_REASONS)[number];
