import { Query } from '@nestjs/cqrs';

/** The status of one operation, folded from its stream (authoritative, never a projection). */
export class GetOperationStatusQuery extends Query<Record<string, unknown>> {
  constructor(readonly operationId: string) {
    super();
  }
}
