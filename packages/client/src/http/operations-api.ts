import type {
  HistoryEvent,
  OperationHistory,
  OperationKey,
  OperationState,
  OperationStatus,
} from '../types.js';
import { ApiBase, opPath, tenantPath, type Page, type PageOptions } from './api-base.js';

/** A row of the status view (`GET /v1/tenants/{tenant}/operations`). */
export interface OperationRow {
  readonly operationId: string;
  readonly state: OperationState;
  readonly [field: string]: unknown;
}

/** An entry of a tenant's review queue. `startedSteps` etc. for `unknown_outcome`. */
export interface ReviewItem {
  readonly operationId: string;
  readonly key: Required<OperationKey>;
  readonly reason: 'unknown_outcome' | 'final_failure' | 'duplicate_effect' | 'awaiting_approval';
  readonly since: string;
  readonly ageMs: number;
  readonly startedSteps?: readonly {
    readonly step: string;
    readonly providerIdempotencyKey: string;
    readonly startedAt?: string;
  }[];
  /** `unknown_outcome`: the true label of why it is unknown, and the worker's own text. */
  readonly unknownCause?: 'reported_by_worker' | 'reported_timeout' | 'lease_expired_after_step';
  readonly unknownDetail?: string | null;
  readonly [field: string]: unknown;
}

/** Filters of the status view. */
export interface OperationFilter extends PageOptions {
  readonly state?: OperationState;
  readonly action?: string;
  readonly source?: string;
  readonly subjectPrefix?: string;
  /** ISO 8601: only operations changed at or after this. */
  readonly changedSince?: string;
  readonly order?: 'asc' | 'desc';
}

/** Filters of the review queue. */
export interface ReviewFilter extends PageOptions {
  readonly reason?: ReviewItem['reason'];
  readonly action?: string;
}

/** A time range `[from, to)` (ISO 8601) and an action. */
export interface RangeFilter extends PageOptions {
  readonly action?: string;
  readonly from?: string;
  readonly to?: string;
}

/** Time travel of `get`: the state at a stream revision (0-based) or at a time (ISO 8601). */
export interface AsOf {
  readonly atRevision?: number;
  readonly asOf?: string;
}

/**
 * Read routes: single operations (read from their streams) and the tenant read models
 * (projections: every answer carries `checkpoint` and `lag`). Roles: auditor or operator
 * (workers may read their own operations).
 */
export class ReadApi extends ApiBase {
  /** `GET /v1/operations/{id}` (404 → LedgerRequestError `not-found`). */
  getOperation(operationId: string, asOf: AsOf = {}): Promise<OperationStatus> {
    return this.getJson(opPath(operationId), { atRevision: asOf.atRevision, asOf: asOf.asOf });
  }

  /** `GET /v1/operations/{id}/history`: every event, in commit order. */
  history(operationId: string): Promise<OperationHistory & { events: readonly HistoryEvent[] }> {
    return this.getJson(opPath(operationId, '/history'));
  }

  /** `GET /v1/tenants/{tenant}/operations`: one page of the status view, newest change first. */
  listOperations(tenant: string, filter: OperationFilter = {}): Promise<Page<OperationRow>> {
    return this.getJson(tenantPath(tenant, '/operations'), { ...filter });
  }

  /** `GET /v1/tenants/{tenant}/review-queue`: one page, oldest first, with `summary`. */
  reviewQueue(tenant: string, filter: ReviewFilter = {}): Promise<Page<ReviewItem>> {
    return this.getJson(tenantPath(tenant, '/review-queue'), { ...filter });
  }

  /** `GET /v1/tenants/{tenant}/conflicts`: payload conflicts with field-level diffs. */
  conflicts(tenant: string, filter: PageOptions & { action?: string; since?: string } = {}) {
    return this.getJson<Page<Record<string, unknown>>>(tenantPath(tenant, '/conflicts'), { ...filter });
  }

  /** `GET /v1/tenants/{tenant}/metrics`: totals, per action, buckets (`hour` | `day`). */
  metrics(tenant: string, filter: RangeFilter & { bucket?: 'minute' | 'hour' | 'day' } = {}) {
    return this.getJson<Record<string, unknown>>(tenantPath(tenant, '/metrics'), { ...filter });
  }

  /** `GET /v1/tenants/{tenant}/reconciliation` as JSON (totals, per action, a page of lines). */
  reconciliation(tenant: string, filter: RangeFilter = {}) {
    return this.getJson<Page<Record<string, unknown>>>(tenantPath(tenant, '/reconciliation'), { ...filter });
  }

  /** `GET /v1/tenants/{tenant}/reconciliation?format=csv`: every line, as CSV text. */
  async reconciliationCsv(
    tenant: string,
    filter: Omit<RangeFilter, 'cursor' | 'limit'> = {},
  ): Promise<string> {
    const res = await this.transport.request<string>('GET', tenantPath(tenant, '/reconciliation'), {
      query: { ...filter, format: 'csv' },
      text: true,
      headers: { accept: 'text/csv' },
    });
    return res.body;
  }

  /** `GET /v1/tenants/{tenant}/policies/{action}` (`*` = the tenant's default). */
  policy(tenant: string, action: string) {
    return this.getJson<Record<string, unknown>>(
      tenantPath(tenant, `/policies/${encodeURIComponent(action)}`),
    );
  }

  /** `GET /v1/tenants/{tenant}/policies/{action}/history`: every version with actor and reason. */
  policyHistory(tenant: string, action: string) {
    return this.getJson<Record<string, unknown>>(
      tenantPath(tenant, `/policies/${encodeURIComponent(action)}/history`),
    );
  }

  /** `GET /v1/projections` (or one by name): projector status. */
  projections(name?: string) {
    return this.getJson<Record<string, unknown>>(
      name ? `/v1/projections/${encodeURIComponent(name)}` : '/v1/projections',
    );
  }

  /** `GET /metrics`: Prometheus text. */
  async prometheus(): Promise<string> {
    return (await this.transport.request<string>('GET', '/metrics', { text: true })).body;
  }
}
