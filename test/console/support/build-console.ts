import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository root (tests run from it: jest's rootDir). */
const ROOT = resolve('.');

/** Where the browser tests write their screenshots and measurements (gitignored). */
export const OUTPUT_DIR = join(ROOT, 'test-output', 'console');

/**
 * Builds the console from its current sources (`vite build` into packages/console/dist, where the
 * ledger serves it from), so the browser tests never run against a stale build. Seconds.
 * @throws Error with the build's output when it fails.
 */
export function buildConsole(): void {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  execFileSync(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    cwd: join(ROOT, 'packages', 'console'),
    stdio: 'pipe',
  });
}
