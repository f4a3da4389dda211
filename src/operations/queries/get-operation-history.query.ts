import { Query } from '@nestjs/cqrs';

/** Every event of one operation — decision and audit streams merged by global position. */
export class GetOperationHistoryQuery extends Query<Record<string, unknown>> {
  constructor(readonly operationId: string) {
    super();
  }
}
