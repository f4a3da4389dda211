import type { OperationListFilter, OperationRow } from '@operation-ledger/protocol';
import type { HistoryEvent, OperationHistory, OperationStatus } from '../types.js';
import { getJson, opPath, paginate, tenantPath, type Page, type PageOptions } from './routes.js';
import type { Transport } from './transport.js';

/** Filters of the status view, with the page. */
export interface OperationFilter extends OperationListFilter, PageOptions {}

/** Time travel of `get`: the state at a stream revision (0-based) or at a time (ISO 8601). */
export interface AsOf {
  readonly atRevision?: number;
  readonly asOf?: string;
}

/** `GET /v1/operations/{id}` (404 → LedgerRequestError `not-found`). */
export function getOperation(
  transport: Transport,
  operationId: string,
  asOf: AsOf = {},
): Promise<OperationStatus> {
  return getJson(transport, opPath(operationId), { atRevision: asOf.atRevision, asOf: asOf.asOf });
}

/**
 * `ledger.operations`: single operations, read from their streams, and the tenant's status view
 * (a projection: each page carries `checkpoint` and `lag`). Roles: auditor or operator (workers
 * may read their own operations). Refusals are typed errors (404 → LedgerRequestError `not-found`).
 */
export class OperationsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/operations/{id}`: the status folded from the stream, now or as of `asOf`. */
  get(operationId: string, asOf: AsOf = {}): Promise<OperationStatus> {
    return getOperation(this.transport, operationId, asOf);
  }

  /** `GET /v1/operations/{id}/history`: every event, in commit order. */
  history(operationId: string): Promise<OperationHistory & { events: readonly HistoryEvent[] }> {
    return getJson(this.transport, opPath(operationId, '/history'));
  }

  /** `GET /v1/tenants/{tenant}/operations`: one page of the status view, newest change first. */
  list(tenant: string, filter: OperationFilter = {}): Promise<Page<OperationRow>> {
    return getJson(this.transport, tenantPath(tenant, '/operations'), { ...filter });
  }

  /** Every row of the status view matching `filter`, page by page (see {@link list}). */
  listAll(tenant: string, filter: Omit<OperationFilter, 'cursor'> = {}): AsyncGenerator<OperationRow> {
    return paginate((cursor) => this.list(tenant, { ...filter, cursor }));
  }
}
