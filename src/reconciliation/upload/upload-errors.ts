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
