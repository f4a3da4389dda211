import { existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '@nestjs/common';
import type { BootstrapOutcome } from './bootstrap-admin-key.js';

/** Name of the file that receives the first admin token when stdout is not a terminal. */
export const ADMIN_KEY_FILE = 'first-admin-key';

/** Where {@link announceBootstrap} shows a newly created token. */
export interface AnnounceOptions {
  /**
   * True when stdout is a terminal: the token is printed there once; else it goes to a 0600 file
   * in the data directory (docs/decisions.md "First admin key"). @defaultValue true
   */
  readonly interactive?: boolean;
  /** The data directory (LEDGER_DATA_DIR); `memory://…` → a new private directory under the OS temp dir. */
  readonly dataDir?: string;
}

/**
 * Tells the operator what {@link bootstrapAdminKey} did; a new first admin token is never written
 * to the log, and never shown again.
 * @returns the key file's path when one was written, else null.
 * @throws Error (from node:fs) when the key file cannot be written.
 */
export function announceBootstrap(
  outcome: BootstrapOutcome,
  logger: Logger,
  write: (s: string) => unknown = (s) => process.stdout.write(s),
  options: AnnounceOptions = {},
): string | null {
  if (outcome.kind === 'from-environment') {
    logger.log(
      `admin key ${outcome.keyId} from LEDGER_ADMIN_TOKEN ${outcome.installed ? 'installed' : 'present'}`,
    );
    return null;
  }
  if (outcome.kind !== 'created') {
    remindOfKeyFile(logger, options);
    return null;
  }
  if (options.interactive === false) {
    const file = writeKeyFile(options.dataDir ?? './data', outcome.token);
    logger.log(
      `first run: created admin key ${outcome.keyId} (tenant "*", role admin); stdout is not a terminal, ` +
        `so its token is in ${file} (mode 0600), not in this log: move it to a secret store, then delete the file`,
    );
    return file;
  }
  write(
    [
      '',
      '==================================================================================',
      ' First run: created an admin API key (tenant "*", role admin). It is shown ONCE:',
      '',
      `   ${outcome.token}`,
      '',
      ' Keep it in a secret store. Use it as "Authorization: Bearer <token>" to create',
      ' worker/operator/auditor keys: POST /v1/admin/keys, or `npm run keys -- create`.',
      '==================================================================================',
      '',
    ].join('\n'),
  );
  return null;
}

/**
 * A first-admin-key file left in the data directory is a plaintext admin secret: every later
 * start says so (naming the file, never the token) until it is deleted.
 */
function remindOfKeyFile(logger: Logger, options: AnnounceOptions): void {
  const dataDir = options.dataDir ?? './data';
  if (dataDir.startsWith('memory://')) return;
  const file = join(dataDir, ADMIN_KEY_FILE);
  if (existsSync(file))
    logger.warn(
      `${file} still holds the first admin token: once it is in a secret store, delete it (rm ${file})`,
    );
}

/** Created 0600 under a temporary name and renamed: never readable by others, replaced whole. */
function writeKeyFile(dataDir: string, token: string): string {
  const dir = dataDir.startsWith('memory://')
    ? mkdtempSync(join(tmpdir(), 'operation-ledger-'))
    : (mkdirSync(dataDir, { recursive: true, mode: 0o700 }), dataDir);
  const file = join(dir, ADMIN_KEY_FILE);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${token}\n`, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, file);
  return file;
}
