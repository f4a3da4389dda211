import { Query } from '@nestjs/cqrs';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';

/** The status of one operation, folded from its stream (authoritative, never a projection). */
export class GetOperationStatusQuery extends Query<Record<string, unknown>> {
  constructor(
    readonly operationId: string,
    /** Who asks; another tenant's operation answers 404 (default: every tenant, in-process use). */
    readonly caller: Caller = ANONYMOUS_CALLER,
  ) {
    super();
  }
}
