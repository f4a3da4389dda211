/** Limits of one reconciliation upload (docs/reconciliation.md "Errors"). */
export interface UploadLimits {
  /** Most bytes of one upload after decompression. */
  readonly maxBytes: number;
  /** Most rows of one upload. */
  readonly maxRows: number;
  /**
   * Longest record (an NDJSON line in bytes, a CSV record in characters); a longer one stops the
   * upload with 413 `record-too-large` before it is held whole.
   */
  readonly maxRecordBytes: number;
  /** Longest text of one cell (record id, reference, compared field), in characters. */
  readonly maxCellChars: number;
}

/**
 * A positive integer from the environment variable `name`, else `fallback`.
 * @throws Error naming the variable when it is set to anything else.
 */
export function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Limits from the environment: `LEDGER_RECONCILIATION_MAX_BYTES` (default 2 GiB),
 * `LEDGER_RECONCILIATION_MAX_ROWS` (default 10 000 000), `LEDGER_RECONCILIATION_MAX_RECORD_BYTES`
 * (default 1 MiB: far above the 32 compared cells of 1 024 characters a run reads, room for the
 * columns an export carries besides).
 * @throws Error naming the variable when it is not a positive integer.
 */
export function uploadLimitsFromEnv(): UploadLimits {
  return {
    maxBytes: positive('LEDGER_RECONCILIATION_MAX_BYTES', 2 * 1024 ** 3),
    maxRows: positive('LEDGER_RECONCILIATION_MAX_ROWS', 10_000_000),
    maxRecordBytes: positive('LEDGER_RECONCILIATION_MAX_RECORD_BYTES', 1024 ** 2),
    maxCellChars: 1024,
  };
}
