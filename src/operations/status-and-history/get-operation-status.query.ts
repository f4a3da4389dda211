import { Query } from '@nestjs/cqrs';
import type { OperationStatusDto } from './status-answers.dto.js';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';

/**
 * The status of one operation, folded from its stream (authoritative, never a projection) —
 * or, for audit, as it was at a stream revision and/or a time (`asOf`).
 */
export class GetOperationStatusQuery extends Query<OperationStatusDto> {
  constructor(
    readonly operationId: string,
    /** Who asks; another tenant's operation answers 404 (default: every tenant, in-process use). */
    readonly caller: Caller = ANONYMOUS_CALLER,
    readonly asOf: { readonly revision?: bigint; readonly time?: Date } = {},
  ) {
    super();
  }
}
