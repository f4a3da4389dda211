/** Every state an operation can be in, as the answers of every slice name them (docs/api.md "States"). */
export { OPERATION_STATES } from '@operation-ledger/protocol';
