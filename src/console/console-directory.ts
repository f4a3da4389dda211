import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the console's build lands, relative to the repository root (packages/console, `vite build`). */
export const CONSOLE_BUILD_PATH = join('packages', 'console', 'dist');

/**
 * The first `packages/console/dist` found walking up from `start` (from `src/` or `dist/src/`).
 * @returns the absolute directory, or null when the console was not built.
 */
export function findConsoleDirectory(start = dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, CONSOLE_BUILD_PATH);
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}
