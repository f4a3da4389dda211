import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AdminCliError } from './restore-data-dir.js';

/** A backup written by {@link downloadBackup}. */
export interface DownloadedBackup {
  readonly bytes: number;
  /** Global position of the last event in it (`-1`: none), from the `Ledger-Backup-Position` header. */
  readonly lastPosition: string;
}

/** The ledger could not be reached or answered 503 (exit status 3). */
export class LedgerUnavailableError extends AdminCliError {
  override readonly name = 'LedgerUnavailableError';
}

/**
 * `POST {url}/v1/admin/backup` with `token` (an admin key for all tenants), streamed to
 * `<file>.partial` and renamed to `file` once complete, so `file` is never a truncated backup.
 * @throws LedgerUnavailableError when the ledger is unreachable or answers 503; AdminCliError for
 *   another refusal (its problem detail), or when the file cannot be written.
 */
export async function downloadBackup(url: string, token: string, file: string): Promise<DownloadedBackup> {
  let res: Response;
  try {
    res = await fetch(new URL('/v1/admin/backup', url), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
  } catch (error) {
    throw new LedgerUnavailableError(`cannot reach the ledger at ${url}: ${(error as Error).message}`);
  }
  if (res.status !== 200 || !res.body) {
    const body = (await res.json().catch(() => ({}))) as { code?: string; detail?: string };
    const why = `the ledger refused the backup: ${res.status} ${body.code ?? ''} ${body.detail ?? ''}`.trim();
    throw res.status === 503 ? new LedgerUnavailableError(why) : new AdminCliError(why);
  }
  const partial = `${file}.partial`;
  let bytes = 0;
  try {
    const body = Readable.fromWeb(res.body as never);
    body.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await pipeline(body, createWriteStream(partial, { mode: 0o600 }));
    renameSync(partial, file);
  } catch (error) {
    rmSync(partial, { force: true });
    throw new AdminCliError(`the backup was not written to ${file}: ${(error as Error).message}`);
  }
  return { bytes, lastPosition: res.headers.get('ledger-backup-position') ?? '-1' };
}
