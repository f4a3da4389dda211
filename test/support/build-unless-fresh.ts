import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Newest modification time (ms) of the files under `dir`; 0 when it does not exist. */
function newest(dir: string): number {
  let t = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/**
 * Runs `npm run <script>` (`args` after it) in `root` unless `output` is newer than every file
 * under `sources` — `npm ci` builds everything once (its `prepare` step), so a test that runs a
 * build's output rebuilds it only after a source changed (a full build — TypeScript and the
 * bundles — costs several CPU-s).
 * @throws Error from `execFileSync` when the build fails.
 */
export function buildUnlessFresh(
  root: string,
  output: string,
  sources: readonly string[],
  npmArgs: readonly string[],
): void {
  let built = 0;
  try {
    built = statSync(join(root, output)).mtimeMs;
  } catch {
    /* not built */
  }
  if (sources.some((dir) => newest(join(root, dir)) > built)) execFileSync('npm', npmArgs, { cwd: root });
}
