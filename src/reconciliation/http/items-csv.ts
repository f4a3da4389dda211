import { stringify } from 'csv-stringify/sync';
import type { ReportItem } from '../sql/report-queries.js';

/** Columns of the items CSV, in order (RFC 4180, header line first, CRLF line ends). */
export const ITEM_CSV_COLUMNS = [
  'seq',
  'category',
  'operationId',
  'action',
  'subject',
  'recordId',
  'reference',
  'line',
  'state',
  'destinationRef',
  'firstSeen',
  'ageMs',
  'outcome',
  'detail',
] as const;

/**
 * A text cell a spreadsheet would run as a formula (starting with `=`, `+`, `@`, tab or CR, or
 * `-` not followed by a digit) gets a leading `'` (OWASP "CSV Injection"); destination exports
 * are untrusted input.
 */
function defuse(value: unknown): unknown {
  return typeof value === 'string' && /^([=+@\t\r]|-(?!\d))/.test(value) ? `'${value}` : value;
}

/** The header line. */
export function itemsCsvHeader(): string {
  return stringify([ITEM_CSV_COLUMNS as unknown as string[]], { record_delimiter: '\r\n' });
}

/** Lines of `items` (`detail` as JSON), via csv-stringify. */
export function itemsCsvLines(items: readonly ReportItem[]): string {
  if (items.length === 0) return '';
  return stringify(
    items.map((item) =>
      ITEM_CSV_COLUMNS.map((c) => defuse(c === 'detail' ? JSON.stringify(item.detail) : (item[c] ?? ''))),
    ),
    { record_delimiter: '\r\n' },
  );
}
