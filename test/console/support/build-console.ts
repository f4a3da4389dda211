import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

/** The repository root (tests run from it: jest's rootDir). */
const ROOT = resolve('.');

/** Where the browser tests write their screenshots and measurements (gitignored). */
export const OUTPUT_DIR = join(ROOT, 'test-output', 'console');

/**
 * Builds the console from its current sources (`vite build` into packages/console/dist, where the
 * ledger serves it from), so the browser tests never run against a stale build. Seconds, in a
 * child process: the caller can start the browser and the ledger meanwhile.
 * @throws Error with the build's output when it fails.
 */
export async function buildConsole(): Promise<void> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    cwd: join(ROOT, 'packages', 'console'),
  });
}
