import { Query } from '@nestjs/cqrs';
import type { OperationHistoryDto } from './status-answers.dto.js';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { OperationNotFound } from '../operation-locator.js';

/** The history document, or `not-found` (an unknown id, or another tenant's). */
export type OperationHistoryResult =
  { readonly kind: 'history'; readonly history: OperationHistoryDto } | OperationNotFound;

/** Every event of one operation — decision and audit streams merged by global position. */
export class GetOperationHistoryQuery extends Query<OperationHistoryResult> {
  constructor(
    readonly operationId: string,
    /** Who asks; another tenant's operation is `not-found` (default: every tenant, in-process use). */
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
