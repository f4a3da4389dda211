/** Bucket sizes of the metrics API. */
export type BucketSize = 'minute' | 'hour' | 'day';

const HOUR_MS = 3_600_000;

/**
 * The bucket size that charts a range as more than a bar or two: minutes up to 6 h, hours up to
 * 31 days, else days. With no complete range, the span of the data — `hourStarts`, the starts
 * (epoch ms) of its hour buckets — is the range (a fresh install: minutes). Pure.
 */
export function autoBucket(range: { from?: string; to?: string }, hourStarts: readonly number[]): BucketSize {
  let span: number;
  if (range.from && range.to) span = Date.parse(range.to) - Date.parse(range.from);
  else if (hourStarts.length === 0) return 'minute';
  else
    span =
      Math.max(...hourStarts) + HOUR_MS - (range.from ? Date.parse(range.from) : Math.min(...hourStarts));
  if (span <= 6 * HOUR_MS) return 'minute';
  if (span <= 31 * 24 * HOUR_MS) return 'hour';
  return 'day';
}
