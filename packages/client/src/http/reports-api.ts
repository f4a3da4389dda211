import type { ReviewItem, ReviewQueueFilter } from '@operation-ledger/protocol';
import { subscribe, type Feed, type FeedEvent, type FeedFilter, type SubscribeOptions } from '../read/sse.js';
import { getJson, paginate, tenantPath, type Page, type PageOptions } from './routes.js';
import type { Transport } from './transport.js';

/** Filters of the review queue, with the page. */
export interface ReviewFilter extends ReviewQueueFilter, PageOptions {}

/** A time range `[from, to)` (ISO 8601) and an action. */
export interface RangeFilter extends PageOptions {
  readonly action?: string;
  readonly from?: string;
  readonly to?: string;
}

/**
 * `ledger.reports`: the tenant read models (projections; every answer carries `checkpoint` and
 * `lag`) — review queue, conflicts, metrics, the outcome report — their live feeds, and the
 * Prometheus text. Roles: auditor or operator. The destination reconciliation (uploads, runs)
 * is `ledger.reconciliation`.
 */
export class ReportsApi {
  constructor(private readonly transport: Transport) {}

  /** `GET /v1/tenants/{tenant}/review-queue`: one page, oldest first, with `summary`. */
  reviewQueue(tenant: string, filter: ReviewFilter = {}): Promise<Page<ReviewItem>> {
    return getJson(this.transport, tenantPath(tenant, '/review-queue'), { ...filter });
  }

  /** Every entry of the review queue matching `filter`, page by page. */
  reviewQueueAll(tenant: string, filter: Omit<ReviewFilter, 'cursor'> = {}): AsyncGenerator<ReviewItem> {
    return paginate((cursor) => this.reviewQueue(tenant, { ...filter, cursor }));
  }

  /** `GET /v1/tenants/{tenant}/conflicts`: payload conflicts with field-level diffs. */
  conflicts(tenant: string, filter: PageOptions & { action?: string; since?: string } = {}) {
    return getJson<Page<Record<string, unknown>>>(this.transport, tenantPath(tenant, '/conflicts'), {
      ...filter,
    });
  }

  /** `GET /v1/tenants/{tenant}/metrics`: totals, per action, buckets (`minute` | `hour` | `day`). */
  metrics(tenant: string, filter: RangeFilter & { bucket?: 'minute' | 'hour' | 'day' } = {}) {
    return getJson<Record<string, unknown>>(this.transport, tenantPath(tenant, '/metrics'), { ...filter });
  }

  /**
   * `GET /v1/tenants/{tenant}/reconciliation` as JSON: the outcome report (totals, per action, a
   * page of lines) of what the ledger recorded — not the destination reconciliation.
   */
  outcomes(tenant: string, filter: RangeFilter = {}) {
    return getJson<Page<Record<string, unknown>>>(this.transport, tenantPath(tenant, '/reconciliation'), {
      ...filter,
    });
  }

  /** `GET /v1/tenants/{tenant}/reconciliation?format=csv`: every line of the outcome report, as CSV. */
  async outcomesCsv(tenant: string, filter: Omit<RangeFilter, 'cursor' | 'limit'> = {}): Promise<string> {
    const res = await this.transport.request<string>('GET', tenantPath(tenant, '/reconciliation'), {
      query: { ...filter, format: 'csv' },
      text: true,
      headers: { accept: 'text/csv' },
    });
    return res.body;
  }

  /** An async iterator over a tenant feed (SSE) with automatic resume; see {@link subscribe}. */
  subscribe(feed: Feed, filter: FeedFilter, options: SubscribeOptions = {}): AsyncGenerator<FeedEvent> {
    return subscribe(this.transport, feed, filter, options);
  }

  /** `GET /metrics`: Prometheus text. */
  async prometheus(): Promise<string> {
    return (await this.transport.request<string>('GET', '/metrics', { text: true })).body;
  }
}
