import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parse, type CsvError } from 'csv-parse';

/** One input line: its 1-based line number and the record, or why it cannot be read. */
export type InputRecord =
  | { readonly line: number; readonly record: Record<string, unknown>; readonly error?: undefined }
  | { readonly line: number; readonly record?: undefined; readonly error: string };

/** Input formats of `backfill`. */
export type InputFormat = 'ndjson' | 'csv';

/** `csv` for `.csv` / `.tsv` files, else `ndjson`. */
export function formatOf(path: string): InputFormat {
  return /\.(csv|tsv)$/i.test(path) ? 'csv' : 'ndjson';
}

/**
 * The records of `path` (NDJSON, or CSV with a header line), streamed with bounded memory; a line
 * that cannot be read is yielded with its `error` and the rest is still read.
 */
export async function* readRecords(
  path: string,
  format: InputFormat,
  signal?: AbortSignal,
): AsyncGenerator<InputRecord> {
  if (format === 'csv') {
    yield* readCsv(path, signal);
    return;
  }
  const lines = createInterface({ input: createReadStream(path, { signal }), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { line, error: `not JSON: ${(err as Error).message}` };
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      yield { line, error: 'not a JSON object' };
    else yield { line, record: value as Record<string, unknown> };
  }
}

async function* readCsv(path: string, signal?: AbortSignal): AsyncGenerator<InputRecord> {
  const skipped: InputRecord[] = [];
  const parser = createReadStream(path, { signal }).pipe(
    parse({
      columns: true,
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      delimiter: /\.tsv$/i.test(path) ? '\t' : ',',
    }),
  );
  parser.on('skip', (err: CsvError) => {
    skipped.push({ line: (err as CsvError & { lines?: number }).lines ?? 0, error: `CSV: ${err.message}` });
  });
  for await (const row of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    while (skipped.length > 0) yield skipped.shift()!;
    yield { line: row.info.lines, record: row.record };
  }
  while (skipped.length > 0) yield skipped.shift()!;
}

/**
 * The column names of a CSV file's header line (trimmed, as `readRecords` names the fields), or
 * null when the file has no header line.
 */
export async function csvColumns(path: string, signal?: AbortSignal): Promise<string[] | null> {
  const parser = createReadStream(path, { signal }).pipe(
    parse({ bom: true, trim: true, to_line: 1, delimiter: /\.tsv$/i.test(path) ? '\t' : ',' }),
  );
  for await (const row of parser as AsyncIterable<string[]>) return row;
  return null;
}

/** Counts the lines of `path` (newlines, streamed) — the progress bar's total; 0 on error. */
export async function countLines(path: string, signal?: AbortSignal): Promise<number> {
  let n = 0;
  let last = 10;
  try {
    for await (const chunk of createReadStream(path, { signal }) as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) n++;
      if (chunk.length > 0) last = chunk[chunk.length - 1]!;
    }
  } catch {
    return 0;
  }
  return last === 10 ? n : n + 1;
}
