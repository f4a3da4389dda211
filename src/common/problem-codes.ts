/**
 * Every problem code with its HTTP status and title (docs/api.md "Problem codes"), from the
 * protocol the clients share: the one code→status table.
 */
export { PROBLEMS, PROBLEM_STATUS, type ProblemCode } from '@operation-ledger/protocol';
