/**
 * Every problem code the ledger answers, with its HTTP status and fixed title (docs/api.md
 * "Problem codes"), from the protocol the clients share. The one code→status table: the HTTP
 * mapping of domain refusals (`REFUSAL_STATUS` in
 * src/operations/problem-answer.ts) and the OpenAPI document's per-route problem responses
 * (`ApiProblems`) both read it.
 */
export { PROBLEMS, PROBLEM_STATUS, type ProblemCode } from '@operation-ledger/protocol';
