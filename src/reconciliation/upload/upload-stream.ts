import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Request } from 'express';
import { unsupportedMedia, uploadTooLarge } from './upload-problems.js';

/** The two accepted upload formats. */
export type UploadFormat = 'csv' | 'ndjson';

const FORMATS: Readonly<Record<string, UploadFormat>> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
};

/** Thrown inside the byte counter; the upload answers 413. */
export class UploadTooLargeError extends Error {}

/** Counts bytes passing through and fails once more than `max` went by. */
class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly max: number) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.max) return done(new UploadTooLargeError(`more than ${this.max} bytes`));
    done(null, chunk);
  }
}

/** How many bytes, for messages (`2 GiB`, `512 KiB`). */
export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${n} bytes`;
}

/**
 * The request body as a stream of plain bytes and its format, from `Content-Type` (`text/csv`,
 * or `application/x-ndjson`) and `Content-Encoding` (`identity` or `gzip`, RFC 9110 §8.4). The
 * body is not buffered: it flows through gunzip (when sent gzipped) and a byte counter that
 * fails the stream with {@link UploadTooLargeError} past `maxBytes` decompressed (a gzip bomb
 * stops there too).
 * @throws ProblemException 415 naming `Content-Type` or `Content-Encoding`.
 */
export function openUpload(req: Request, maxBytes: number): { format: UploadFormat; body: Readable } {
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const format = FORMATS[type];
  if (!format) {
    throw unsupportedMedia(
      'Content-Type',
      `send the export as text/csv or application/x-ndjson${type ? `, not ${type}` : ''}`,
    );
  }
  const encoding = (req.header('content-encoding') ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw unsupportedMedia(
      'Content-Encoding',
      `Content-Encoding ${encoding} is not accepted (use gzip or none)`,
    );
  }
  const limit = new ByteLimit(maxBytes);
  // pipeline destroys every stage on an error, so a reader of the last one sees it
  const noop = () => undefined;
  if (encoding === 'identity') pipeline(req, limit, noop);
  else pipeline(req, createGunzip(), limit, noop);
  return { format, body: limit };
}

/** The problem for a stream error of {@link openUpload}, or null when it is something else. */
export function uploadStreamProblem(err: unknown, maxBytes: number) {
  if (err instanceof UploadTooLargeError)
    return uploadTooLarge(`${formatBytes(maxBytes)} (after decompression)`);
  const code = (err as { code?: string }).code;
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return unsupportedMedia('Content-Encoding', 'the body is not valid gzip');
  }
  return null;
}
