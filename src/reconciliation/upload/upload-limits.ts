/** Limits of one reconciliation upload (docs/reconciliation.md "Limits"). */
export interface UploadLimits {
  /** Most bytes of one upload after decompression. */
  readonly maxBytes: number;
  /** Most rows of one upload. */
  readonly maxRows: number;
  /** Longest text of one cell (record id, reference, compared field), in characters. */
  readonly maxCellChars: number;
}

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * Limits from the environment: `LEDGER_RECONCILIATION_MAX_BYTES` (default 2 GiB),
 * `LEDGER_RECONCILIATION_MAX_ROWS` (default 10 000 000).
 * @throws Error naming the variable when it is not a positive integer.
 */
export function uploadLimitsFromEnv(): UploadLimits {
  return {
    maxBytes: positive('LEDGER_RECONCILIATION_MAX_BYTES', 2 * 1024 ** 3),
    maxRows: positive('LEDGER_RECONCILIATION_MAX_ROWS', 10_000_000),
    maxCellChars: 1024,
  };
}
