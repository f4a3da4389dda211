import type { ReconciliationLine } from './outcome-report-queries.js';

/** Columns of the reconciliation CSV, in order (RFC 4180, header line first). */
export const RECONCILIATION_CSV_COLUMNS: readonly (keyof ReconciliationLine)[] = [
  'operationId',
  'source',
  'action',
  'subject',
  'revision',
  'category',
  'state',
  'destinationRef',
  'duplicateEffects',
  'attempts',
  'firstSeen',
  'lastChange',
];

/**
 * One CSV field (RFC 4180); text a spreadsheet would run as a formula is prefixed with `'`
 * (OWASP "CSV Injection").
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^([=+@\t\r]|-(?!\d))/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The header line, CRLF-terminated. */
export function csvHeader(): string {
  return RECONCILIATION_CSV_COLUMNS.join(',') + '\r\n';
}

/** One report line, CRLF-terminated. */
export function csvLine(line: ReconciliationLine): string {
  return RECONCILIATION_CSV_COLUMNS.map((c) => csvField(line[c])).join(',') + '\r\n';
}
