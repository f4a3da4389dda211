import { pipeline, Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { IncomingMessage } from 'node:http';
import { streamedUpload } from '../../common/request-deadline.js';
import type { UnsupportedMedia, UploadRefusal } from '../upload-refusal.js';
import type { UploadLimits } from './upload-limits.js';
import { RecordTooLargeError } from './upload-errors.js';

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

/** Charsets an upload may declare: it is read as UTF-8, of which US-ASCII is a subset. */
const CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * The request body as a stream of plain bytes and its format, from `Content-Type` (`text/csv`,
 * or `application/x-ndjson`; no `charset`, or `utf-8`/`us-ascii`) and `Content-Encoding`
 * (`identity` or `gzip`, RFC 9110 §8.4). The body is not buffered: it flows through gunzip (when
 * sent gzipped) and a byte counter that fails the stream with {@link UploadTooLargeError} past
 * `maxBytes` decompressed (a gzip bomb stops there too). A charset is checked, not converted: an
 * export in another one would be read wrongly, so it is refused.
 *
 * The request itself is piped, never destroyed: when the returned stream ends early (an error,
 * or its reader stops at a refused record), the rest of the request is read and discarded, so the
 * client that is still sending receives the answer instead of a reset connection. A client that
 * goes away fails the returned stream. The upload may take as long as its bytes keep coming
 * (`streamedUpload`: the request timeout bounds its silences, not its length).
 * @returns the body, or the refusal (answered 415) naming `Content-Type` or `Content-Encoding`;
 *   then the request is left as it is.
 */
export function openUpload(
  req: IncomingMessage,
  maxBytes: number,
): { readonly kind: 'opened'; readonly format: UploadFormat; readonly body: Readable } | UnsupportedMedia {
  const [mediaType, ...params] = (req.headers['content-type'] ?? '').split(';');
  const type = mediaType!.trim().toLowerCase();
  const format = FORMATS[type];
  if (!format) {
    return unsupportedMedia(
      'Content-Type',
      `send the export as text/csv or application/x-ndjson${type ? `, not ${type}` : ''}`,
    );
  }
  const charset = params
    .map((p) => p.trim().split('='))
    .find(([name]) => name!.trim().toLowerCase() === 'charset')?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  if (charset !== undefined && !CHARSETS.has(charset)) {
    return unsupportedMedia(
      'Content-Type',
      `charset=${charset} is not accepted: the export is read as UTF-8 (send charset=utf-8 or none)`,
    );
  }
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
    return unsupportedMedia(
      'Content-Encoding',
      `Content-Encoding ${encoding} is not accepted (use gzip or none)`,
    );
  }
  const limit = new ByteLimit(maxBytes);
  // The body may fail before anyone reads it (the limit, a client reset while the run row is
  // written): the reader finds the error in `errored` (read-records.ts). Without a listener an
  // 'error' event would end the process.
  limit.on('error', () => undefined);
  let head: Writable = limit;
  if (encoding !== 'identity') {
    head = createGunzip();
    // pipeline destroys both stages on an error, so a reader of the last one sees it
    pipeline(head as Transform, limit, () => undefined);
  }
  streamedUpload(req);
  req.pipe(head);
  const gone = () => head.destroy(new UploadInterruptedError('the client went away mid-upload'));
  req.once('error', gone);
  req.once('close', () => {
    if (!req.complete) gone();
  });
  // A client gone before this handler ran: 'close' was emitted already and the body never ends.
  if (req.destroyed && !req.complete) gone();
  head.once('close', () => {
    if (req.complete || req.destroyed) return;
    req.unpipe(head);
    req.resume(); // discard the rest; the answer goes out meanwhile
  });
  return { kind: 'opened', format, body: limit };
}

const unsupportedMedia = (field: UnsupportedMedia['field'], detail: string): UnsupportedMedia => ({
  kind: 'unsupported-media',
  field,
  detail,
});

/** The request ended before its body was complete. */
export class UploadInterruptedError extends Error {}

/**
 * The refusal a stream error of {@link openUpload} or a refused record stands for (the upload
 * too large, a record too large, the client gone, not gzip), or null when it is something else.
 */
export function uploadStreamRefusal(err: unknown, limits: UploadLimits): UploadRefusal | null {
  if (err instanceof UploadTooLargeError)
    return { kind: 'upload-too-large', limit: `${formatBytes(limits.maxBytes)} (after decompression)` };
  if (err instanceof RecordTooLargeError)
    return { kind: 'record-too-large', line: err.line, limit: formatBytes(limits.maxRecordBytes) };
  if (err instanceof UploadInterruptedError) return { kind: 'upload-interrupted' };
  const code = (err as { code?: string }).code;
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return unsupportedMedia('Content-Encoding', 'the body is not valid gzip');
  }
  return null;
}
