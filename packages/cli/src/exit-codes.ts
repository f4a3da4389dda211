import { LedgerRequestError, LedgerUnavailableError } from '@operation-ledger/client';
import { CommanderError } from 'commander';

/** Exit statuses of `ledger` (docs/operating.md "Output and exit status"). */
export const EXIT = { ok: 0, refused: 1, usage: 2, unavailable: 3 } as const;

/** Bad usage found by the CLI itself (a missing `--tenant`, a malformed reference); exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A refusal found by the CLI itself (not confirmed, nothing matched, items refused); exit 1. */
export class RefusedError extends Error {
  override readonly name = 'RefusedError';
}

/** The exit status for an error thrown by a command (see {@link EXIT}). */
export function exitCodeOf(err: unknown): number {
  if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  if (err instanceof UsageError) return EXIT.usage;
  if (err instanceof RefusedError) return EXIT.refused;
  if (err instanceof LedgerUnavailableError) return EXIT.unavailable;
  if (err instanceof LedgerRequestError) {
    if (err.status === 400 || err.status === 413) return EXIT.usage;
    if (err.status === 429 || err.status >= 500) return EXIT.unavailable;
    return EXIT.refused;
  }
  // Network failures (fetch's TypeError, ECONNREFUSED…); checked by name, not instanceof, so an
  // error from another realm (a test VM) is classified the same.
  const e = err as { name?: unknown; code?: unknown } | null;
  if (e && typeof e === 'object' && (e.name === 'TypeError' || typeof e.code === 'string'))
    return EXIT.unavailable;
  return EXIT.refused;
}

/** One line for stderr: the problem code, its detail and the fields at fault. */
export function describeError(err: unknown): string {
  if (err instanceof LedgerRequestError) {
    const fields = (err.problem.errors ?? []).map((e) => `\n  ${e.field}: ${e.message}`).join('');
    const detail = err.problem.detail ? `: ${err.problem.detail}` : '';
    return `ledger refused (${err.status} ${err.code})${detail}${fields}`;
  }
  if (err instanceof LedgerUnavailableError) return `ledger unavailable: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
