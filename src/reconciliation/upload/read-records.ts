import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { splitLines } from './split-lines.js';
import { RecordTooLargeError, RowError } from './upload-errors.js';
import type { UploadFormat } from './upload-stream.js';

/** One record of an upload: its 1-based line (CSV: record number after the header) and columns. */
export interface UploadRecord {
  readonly line: number;
  readonly values: Readonly<Record<string, unknown>>;
}

/** The 1-based record (after the header) a csv-parse error is about, from its `lines` count. */
const csvLine = (e: { lines?: number }) => Math.max(1, (e.lines ?? 2) - 1);

/**
 * Reads the records of an upload one at a time (back-pressure: nothing is read ahead of the
 * consumer beyond the stream's buffers). No record is held longer than `maxRecordBytes`
 * (`LEDGER_RECONCILIATION_MAX_RECORD_BYTES`): past it, reading stops. When the iteration ends
 * early (an error, or the consumer stops), `body` is destroyed, so the upload stops flowing.
 * - CSV (RFC 4180, via `csv-parse`): the first line names the columns; a UTF-8 BOM is skipped,
 *   empty lines are ignored, a record with a different number of fields is an error. `line` is
 *   the record's number (1 = the first after the header). The cap is csv-parse's
 *   `max_record_size`, counted in characters.
 * - NDJSON: one JSON object per line (empty lines ignored); `line` is the line number. The cap
 *   counts the line's bytes (split-lines.ts).
 * @throws RowError for a malformed record (with its line), RecordTooLargeError for one over the
 *   cap, or the stream's own error.
 */
export async function* readRecords(
  body: Readable,
  format: UploadFormat,
  maxRecordBytes: number,
): AsyncGenerator<UploadRecord> {
  try {
    // A body can fail before it is read (broken gzip while the run row is written): pipe() and
    // 'error' listeners added now would wait for an end that never comes.
    if (body.errored) throw body.errored;
    if (format === 'csv') yield* readCsv(body, maxRecordBytes);
    else yield* readNdjson(body, maxRecordBytes);
  } finally {
    if (!body.destroyed) body.destroy();
  }
}

async function* readCsv(body: Readable, maxRecordBytes: number): AsyncGenerator<UploadRecord> {
  const parser = body.pipe(
    parse({
      columns: true,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      max_record_size: maxRecordBytes,
    }),
  );
  body.once('error', (err) => parser.destroy(err));
  // The record's number, counted here: csv-parse's `info` option builds an object per record.
  let line = 0;
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      yield { line: ++line, values: record };
    }
  } catch (err) {
    const e = err as { code?: string; lines?: number; message: string };
    if (e.code === 'CSV_MAX_RECORD_SIZE') throw new RecordTooLargeError(csvLine(e), maxRecordBytes);
    // every csv-parse refusal (CSV_* codes, INVALID_OPENING_QUOTE, …) is the upload's fault
    if (err instanceof CsvError) throw new RowError(csvLine(e), null, e.message);
    throw err;
  } finally {
    parser.destroy();
  }
}

async function* readNdjson(body: Readable, maxRecordBytes: number): AsyncGenerator<UploadRecord> {
  for await (const { line, text } of splitLines(body, maxRecordBytes)) {
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
