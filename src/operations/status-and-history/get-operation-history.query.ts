import { Query } from '@nestjs/cqrs';
import type { OperationHistoryDto } from './status-answers.dto.js';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';

/** Every event of one operation — decision and audit streams merged by global position. */
export class GetOperationHistoryQuery extends Query<OperationHistoryDto> {
  constructor(
    readonly operationId: string,
    /** Who asks; another tenant's operation answers 404 (default: every tenant, in-process use). */
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
