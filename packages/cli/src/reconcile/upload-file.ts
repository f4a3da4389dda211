import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, Transform, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { ReconciliationUpload } from '@operation-ledger/client';
import { UsageError } from '../exit-codes.js';

/** Formats the ledger reads an export in. */
export type ExportFormat = 'csv' | 'ndjson';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv',
  ndjson: 'application/x-ndjson',
};

/**
 * The format of an export by its name: `.csv` → CSV; `.ndjson` or `.jsonl` → NDJSON; either
 * followed by `.gz` (sent compressed, as it is). Null when the name says neither.
 */
export function formatOfName(path: string): { format: ExportFormat; gzipped: boolean } | null {
  const gzipped = /\.gz$/i.test(path);
  const name = path.replace(/\.gz$/i, '');
  if (/\.csv$/i.test(name)) return { format: 'csv', gzipped };
  if (/\.(ndjson|jsonl)$/i.test(name)) return { format: 'ndjson', gzipped };
  return null;
}

/** An export file ready to stream: how to send it and its size on disk (for the progress bar). */
export interface ExportFile {
  readonly path: string;
  readonly format: ExportFormat;
  /** Bytes of the file as stored (compressed when `.gz`); null for stdin. */
  readonly size: number | null;
  /**
   * The upload: the file streamed (never read whole), compressed on the way with `gzip` unless
   * it already is; `onBytes` counts the file's bytes as they are read.
   */
  upload(onBytes: (n: number) => void, signal?: AbortSignal): ReconciliationUpload;
}

/**
 * Opens an export given on the command line: `path` (resolved by the caller), or
 * `-` for stdin (then `format` is required). `format` overrides the name; `gzip` compresses a
 * plain file on the way (`Content-Encoding: gzip`).
 * @throws UsageError naming `option` when the file cannot be read or its format is unknown.
 */
export async function openExport(
  option: string,
  path: string,
  stdin: NodeJS.ReadableStream,
  choice: { format?: ExportFormat; gzip?: boolean },
): Promise<ExportFile> {
  const byName = path === '-' ? null : formatOfName(path);
  const format = choice.format ?? byName?.format;
  if (!format)
    throw new UsageError(
      `${option}: cannot tell the format of ${path} — name it .csv, .ndjson or .jsonl (optionally .gz), or pass --format`,
    );
  let size: number | null = null;
  if (path !== '-') {
    const info = await stat(path).catch(() => null);
    if (!info?.isFile()) throw new UsageError(`${option}: cannot read ${path}`);
    size = info.size;
  }
  const gzipped = byName?.gzipped ?? false;
  return {
    path,
    format,
    size,
    upload(onBytes, signal) {
      const file = path === '-' ? stdin : createReadStream(path, { signal });
      const compress = choice.gzip === true && !gzipped;
      // pipeline destroys every stage when one fails or is destroyed (the ledger refused early)
      const stages = [file, byteCounter(onBytes), ...(compress ? [createGzip()] : [])] as const;
      const body = stages[stages.length - 1] as Readable;
      pipeline([...stages], () => undefined);
      return { body, contentType: CONTENT_TYPES[format], gzip: gzipped || compress, signal };
    },
  };
}

/** Passes bytes through, telling `onBytes` how many went by. */
function byteCounter(onBytes: (n: number) => void): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      onBytes(chunk.length);
      done(null, chunk);
    },
  });
}
