import { Query } from '@nestjs/cqrs';
import type { OperationStatusDto } from './status-answers.dto.js';
import { ANONYMOUS_CALLER, type Caller } from '../../auth/caller.js';
import type { OperationNotFound } from '../operation-locator.js';

/** The status document, or `not-found` (an unknown id, another tenant's, or none yet at `asOf`). */
export type OperationStatusResult =
  { readonly kind: 'status'; readonly status: OperationStatusDto } | OperationNotFound;

/**
 * The status of one operation, folded from its stream (authoritative, never a projection) —
 * or, for audit, as it was at a stream revision and/or a time (`asOf`).
 */
export class GetOperationStatusQuery extends Query<OperationStatusResult> {
  constructor(
    readonly operationId: string,
    /** Who asks; another tenant's operation is `not-found` (default: every tenant, in-process use). */
    readonly caller: Caller = ANONYMOUS_CALLER,
    readonly asOf: { readonly revision?: bigint; readonly time?: Date } = {},
  ) {
    super();
  }
}
