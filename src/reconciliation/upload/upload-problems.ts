import { problem } from '../../common/problem.js';
import { ProblemException } from '../../common/problem.exception.js';
import type { FieldError } from '../../common/validation.js';

/** Most field errors listed in one answer (the first ones in file order). */
export const MAX_LISTED_ROW_ERRORS = 20;

/** A problem with one uploaded row: `field` names the row and column, e.g. `rows[12].reference`. */
export class RowError extends Error {
  constructor(
    readonly line: number,
    readonly column: string | null,
    message: string,
  ) {
    super(message);
  }

  /** The problem+json `errors[]` entry. */
  toFieldError(): FieldError {
    return {
      field: this.column === null ? `rows[${this.line}]` : `rows[${this.line}].${this.column}`,
      message: this.message,
    };
  }
}

/** 422 `invalid-upload`: rows that cannot be reconciled, each named (`rows[<line>].<column>`). */
export function invalidUpload(errors: readonly RowError[], what: string): ProblemException {
  const listed = errors.slice(0, MAX_LISTED_ROW_ERRORS).map((e) => e.toFieldError());
  const detail = `the ${what} has rows that cannot be read: ${listed.map((e) => `${e.field}: ${e.message}`).join('; ')}`;
  return new ProblemException(problem('invalid-upload', 422, detail, { errors: listed }));
}

/**
 * Thrown by the upload readers when one record (an NDJSON line, a CSV record) is longer than the
 * record size cap; reading stops there, the record is never held whole. `line` as in {@link RowError}.
 */
export class RecordTooLargeError extends Error {
  constructor(
    readonly line: number,
    readonly maxBytes: number,
  ) {
    super(`record ${line} is longer than ${maxBytes} bytes`);
  }
}

/**
 * 413 `record-too-large` naming the record (`rows[<line>]`): one record is longer than
 * `LEDGER_RECONCILIATION_MAX_RECORD_BYTES` (`limit`, e.g. `1 MiB`).
 */
export function recordTooLarge(line: number, limit: string): ProblemException {
  const message = `longer than ${limit} (LEDGER_RECONCILIATION_MAX_RECORD_BYTES)`;
  return new ProblemException(
    problem('record-too-large', 413, `record ${line} of the upload is ${message}; nothing was kept`, {
      errors: [{ field: `rows[${line}]`, message }],
    }),
  );
}

/** 413 `payload-too-large`: the (decompressed) upload exceeds the configured limit. */
export function uploadTooLarge(limit: string): ProblemException {
  return new ProblemException(
    problem('payload-too-large', 413, `the upload exceeds ${limit}`, {
      errors: [{ field: 'body', message: `at most ${limit}` }],
    }),
  );
}

/** 415 `unsupported-media-type` naming the header at fault. */
export function unsupportedMedia(
  field: 'Content-Type' | 'Content-Encoding',
  detail: string,
): ProblemException {
  return new ProblemException(
    problem('unsupported-media-type', 415, detail, { errors: [{ field, message: detail }] }),
  );
}

/**
 * 400 `upload-interrupted`: the request ended (the client reset or closed its connection) before
 * its body was complete. Nobody may be left to read it; it keeps the log from calling the
 * client's disconnect a server error.
 */
export function uploadInterrupted(): ProblemException {
  return new ProblemException(
    problem('upload-interrupted', 400, 'the request ended before its body was complete; nothing was kept'),
  );
}
