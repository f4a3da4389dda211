/** Every state an operation can be in, as the answers of every slice name them (docs/api.md "States"). */
export const OPERATION_STATES = [
  'awaiting_approval',
  'approved',
  'rejected',
  'in_progress',
  'confirmed',
  'failed',
  'released',
  'unknown',
  'abandoned',
] as const;
