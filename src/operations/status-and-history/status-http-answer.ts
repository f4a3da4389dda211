import { answer, notFoundAnswer, type HttpAnswer } from '../problem-answer.js';
import type { OperationHistoryResult } from './get-operation-history.query.js';
import type { OperationStatusResult } from './get-operation-status.query.js';

/** GET /v1/operations/{id} (docs/api.md "Reading one operation"): 200 the status, or 404 `not-found`. */
export function statusAnswer(result: OperationStatusResult): HttpAnswer {
  return result.kind === 'not-found' ? notFoundAnswer(result) : answer(200, result.status);
}

/** GET /v1/operations/{id}/history: 200 both streams in commit order, or 404 `not-found`. */
export function historyAnswer(result: OperationHistoryResult): HttpAnswer {
  return result.kind === 'not-found' ? notFoundAnswer(result) : answer(200, result.history);
}
