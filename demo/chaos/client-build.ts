import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the nearest directory up from here holding `packages/client`. */
function repositoryRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'packages', 'client', 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('packages/client not found above demo/chaos');
    dir = up;
  }
  return dir;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * The chaos worker processes import the built worker SDK (`packages/client/dist`, what
 * `@operation-ledger/client` resolves to). Builds it with the package's own `tsc -p` when it is
 * missing or older than its sources, so the chaos demo and its test run from a fresh checkout
 * (TypeScript 7, the compiler every build uses: the `typescript7` dev dependency).
 * @throws Error when the build fails.
 */
export function ensureClientBuilt(): void {
  const pkg = join(repositoryRoot(), 'packages', 'client');
  const built = join(pkg, 'dist', 'index.js');
  if (existsSync(built) && statSync(built).mtimeMs >= newestMtime(join(pkg, 'src'))) return;
  const tsc = resolve(
    dirname(createRequire(import.meta.url).resolve('typescript7/package.json')),
    'bin',
    'tsc',
  );
  execFileSync(process.execPath, [tsc, '-p', join(pkg, 'tsconfig.json')], { stdio: 'inherit' });
}
