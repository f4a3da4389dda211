import { cellText } from './cell.js';
import type { UploadRecord } from './read-records.js';
import type { UploadFormat } from './upload-stream.js';
import { RowError } from './upload-errors.js';

/** A destination column compared with the operation's payload at a JSON Pointer (RFC 6901). */
export interface ComparedField {
  readonly column: string;
  readonly pointer: string;
}

/** How destination records are read (the run's options). */
export interface DestinationLayout {
  /** Column of the destination's own record id (default `id`). */
  readonly idField: string;
  /** Column of the reference the worker stored there (default `reference`). */
  readonly refField: string;
  /** Text stripped from the start of each reference before matching, if any. */
  readonly refPrefix: string | null;
  readonly compare: readonly ComparedField[];
}

/** One destination record as spilled to SQL. */
export interface DestinationRow {
  readonly line: number;
  readonly recordId: string;
  /** The reference to match (prefix stripped); null when the record has none. */
  readonly reference: string | null;
  /** The compared columns' texts (null: empty), or null when nothing is compared. */
  readonly fields: Record<string, string | null> | null;
}

/**
 * Reads one destination record: the record id is required; the reference may be empty (the
 * record then is an orphan: it names no operation); a reference that does not start with
 * `refPrefix` is kept whole (it matches no operation either). In a CSV export every column the
 * run names (`idField`, `refField`, the compared ones) must be in the header: a misspelt one would
 * otherwise read as empty in every record and give a confidently wrong report (all "missing").
 * @throws RowError naming the line and column.
 */
export function destinationRow(
  record: UploadRecord,
  layout: DestinationLayout,
  maxChars: number,
  format: UploadFormat = 'ndjson',
): DestinationRow {
  const { line, values } = record;
  if (format === 'csv') {
    for (const [column, named] of [
      [layout.idField, 'idField'],
      [layout.refField, 'refField'],
      ...layout.compare.map((c) => [c.column, 'compare'] as const),
    ] as const) {
      if (!Object.hasOwn(values, column)) {
        throw new RowError(
          line,
          column,
          `the CSV header has no column ${JSON.stringify(column)} (named by ${named})`,
        );
      }
    }
  }
  const recordId = cellText(values[layout.idField], line, layout.idField, maxChars);
  if (recordId === null) throw new RowError(line, layout.idField, 'the record id is required');
  let reference = cellText(values[layout.refField], line, layout.refField, maxChars);
  if (reference !== null && layout.refPrefix && reference.startsWith(layout.refPrefix)) {
    reference = reference.slice(layout.refPrefix.length) || null;
  }
  let fields: Record<string, string | null> | null = null;
  if (layout.compare.length > 0) {
    fields = {};
    for (const { column } of layout.compare)
      fields[column] = cellText(values[column], line, column, maxChars);
  }
  return { line, recordId, reference, fields };
}
