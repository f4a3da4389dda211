import { get, seg } from '../api.js';

/** One counters bucket of GET /v1/tenants/{tenant}/metrics (camelCase counters). */
export interface Bucket {
  readonly action: string;
  readonly bucketStart: string;
  readonly counters: Record<string, number>;
}

export interface MetricsAnswer {
  readonly totals: Record<string, number>;
  readonly byAction: Record<string, Record<string, number>>;
  readonly buckets: Bucket[];
  readonly nextCursor: string | null;
}

/** Pages fetched at most (500 buckets each): a year of hours for a handful of actions. */
const MAX_PAGES = 20;

/**
 * Totals and every bucket of the scope (following `nextCursor`, at most {@link MAX_PAGES} pages).
 * @throws ProblemError from the API.
 */
export async function loadMetrics(
  tenant: string,
  query: Record<string, string | undefined>,
): Promise<MetricsAnswer> {
  const path = `/v1/tenants/${seg(tenant)}/metrics`;
  let page = await get<MetricsAnswer>(path, { ...query, limit: 500 });
  const buckets = [...page.buckets];
  for (let i = 1; page.nextCursor && i < MAX_PAGES; i++) {
    page = await get<MetricsAnswer>(path, { ...query, limit: 500, cursor: page.nextCursor });
    buckets.push(...page.buckets);
  }
  return { ...page, buckets };
}

/**
 * Buckets summed over actions, oldest first: `xs` in epoch seconds and, per counter, one value
 * per x (0 where a bucket had none).
 */
export function seriesOf(buckets: readonly Bucket[], counters: readonly string[]) {
  const byStart = new Map<number, Record<string, number>>();
  for (const b of buckets) {
    const x = Date.parse(b.bucketStart) / 1000;
    const sum = byStart.get(x) ?? {};
    for (const c of counters) sum[c] = (sum[c] ?? 0) + (b.counters[c] ?? 0);
    byStart.set(x, sum);
  }
  const xs = [...byStart.keys()].sort((a, b) => a - b);
  return { xs, values: Object.fromEntries(counters.map((c) => [c, xs.map((x) => byStart.get(x)![c] ?? 0)])) };
}
