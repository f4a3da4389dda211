import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { RowError } from './upload-problems.js';
import type { UploadFormat } from './upload-stream.js';

/** One record of an upload: its 1-based line (CSV: record number after the header) and columns. */
export interface UploadRecord {
  readonly line: number;
  readonly values: Readonly<Record<string, unknown>>;
}

/**
 * Reads the records of an upload one at a time (back-pressure: nothing is read ahead of the
 * consumer beyond the stream's buffers).
 * - CSV (RFC 4180, via `csv-parse`): the first line names the columns; a UTF-8 BOM is skipped,
 *   empty lines are ignored, a record with a different number of fields is an error. `line` is
 *   the record's number (1 = the first after the header).
 * - NDJSON: one JSON object per line (empty lines ignored); `line` is the line number.
 * @throws RowError for a malformed record (with its line), or the stream's own error.
 */
export async function* readRecords(body: Readable, format: UploadFormat): AsyncGenerator<UploadRecord> {
  if (format === 'csv') {
    const parser = body.pipe(
      parse({ columns: true, bom: true, skip_empty_lines: true, relax_column_count: false, info: true }),
    );
    body.once('error', (err) => parser.destroy(err));
    try {
      for await (const { record, info } of parser as AsyncIterable<{
        record: Record<string, string>;
        info: { records: number };
      }>) {
        yield { line: info.records, values: record };
      }
    } catch (err) {
      const e = err as { code?: string; lines?: number; message: string };
      if (typeof e.code === 'string' && e.code.startsWith('CSV_')) {
        throw new RowError(Math.max(1, (e.lines ?? 2) - 1), null, e.message);
      }
      throw err;
    }
    return;
  }
  const lines = createInterface({ input: body, crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      throw new RowError(line, null, `not JSON: ${(err as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new RowError(line, null, 'each line must be a JSON object');
    }
    yield { line, values: value as Record<string, unknown> };
  }
}
