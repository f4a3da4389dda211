import type { UploadRecord } from './read-records.js';
import type { InvalidUpload, UploadTooLarge } from '../upload-refusal.js';
import { MAX_LISTED_ROW_ERRORS, RowError } from './upload-errors.js';
import type { UploadLimits } from './upload-limits.js';
import { SPILL_BATCH } from '../sql/spill-rows.js';

/** What {@link ingest} did: the rows written, or why the upload was refused. */
export type IngestResult =
  { readonly kind: 'ingested'; readonly rows: number } | InvalidUpload | UploadTooLarge;

/**
 * Streams `records` through `toRow` into `write`, {@link SPILL_BATCH} rows at a time: the next
 * batch is read while the previous one is being written (at most one write in flight, in order),
 * so at most two batches are held in memory and reading and the database work overlap. Rows that
 * cannot be read are collected (the first {@link MAX_LISTED_ROW_ERRORS}) while reading goes on,
 * so one answer names them all; once that many are found, reading stops. Whatever it answers,
 * it does so only once the write in flight has settled (a caller that removes the upload after
 * a failure removes all of it).
 * @returns the number of rows written, or the refusal: `invalid-upload` naming
 *   `rows[<line>].<column>`, `upload-too-large` past `limits.maxRows` (then nothing more is written).
 * @throws errors of the stream or of `write` as they come.
 */
export async function ingest<Row>(
  records: AsyncIterable<UploadRecord>,
  toRow: (record: UploadRecord) => Row,
  write: (batch: Row[]) => Promise<void>,
  limits: UploadLimits,
  what: string,
): Promise<IngestResult> {
  const errors: RowError[] = [];
  let batch: Row[] = [];
  let count = 0;
  /** The write in flight; it resolves to its failure (never rejects: nobody may be awaiting it). */
  let inFlight: Promise<{ error: unknown } | null> | null = null;
  const settle = async () => {
    const failed = await inFlight;
    inFlight = null;
    if (failed) throw failed.error;
  };
  const send = async (rows: Row[]) => {
    await settle();
    inFlight = write(rows).then(
      () => null,
      (error: unknown) => ({ error }),
    );
  };
  const iterator = records[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<UploadRecord>;
      try {
        next = await iterator.next();
      } catch (err) {
        if (!(err instanceof RowError)) throw err;
        errors.push(err);
        break; // the reader cannot go on after a malformed record
      }
      if (next.done) break;
      if (++count > limits.maxRows) return { kind: 'upload-too-large', limit: `${limits.maxRows} rows` };
      try {
        const row = toRow(next.value);
        if (errors.length === 0) batch.push(row); // after an error, rows are only checked
      } catch (err) {
        if (!(err instanceof RowError)) throw err;
        errors.push(err);
        if (errors.length >= MAX_LISTED_ROW_ERRORS) break;
        continue;
      }
      if (errors.length === 0 && batch.length >= SPILL_BATCH) {
        await send(batch);
        batch = [];
      }
    }
    if (errors.length > 0) return invalidUpload(errors, what);
    if (batch.length > 0) await send(batch);
    await settle();
  } finally {
    await inFlight; // when another error is on its way, the write still lands before it is answered
    await iterator.return?.(undefined);
  }
  return { kind: 'ingested', rows: count };
}

/**
 * 422 `invalid-upload` as a value: the first {@link MAX_LISTED_ROW_ERRORS} of `errors`, each
 * naming its row and column, in the `what` upload.
 */
function invalidUpload(errors: readonly RowError[], what: string): InvalidUpload {
  return {
    kind: 'invalid-upload',
    errors: errors.slice(0, MAX_LISTED_ROW_ERRORS).map((e) => e.toFieldError()),
    what,
  };
}
