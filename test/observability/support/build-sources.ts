import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = process.cwd();
const OUT = join(ROOT, 'node_modules/.cache/ledger-observability-build');

// Transpiles src/**/*.ts (not type-checked: `npx tsc` does that) with the project's .swcrc.
const BUILD = `
import { transformFile } from '@swc/core';
import { readdirSync, mkdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
const [root, out] = process.argv.slice(1);
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;
const files = [];
const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name);
  if (e.isDirectory()) walk(p); else if (p.endsWith('.ts') && !p.endsWith('.spec.ts')) files.push(p); } };
walk(join(root, 'src'));
rmSync(out, { recursive: true, force: true });
await Promise.all(files.map(async (f) => {
  const { code } = await transformFile(f, { ...swcrc, swcrc: false, sourceMaps: false, filename: f });
  const target = join(out, relative(root, f)).replace(/\\.ts$/, '.js');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, code);
}));
writeFileSync(join(out, 'package.json'), '{"type":"module"}\\n');
`;

let built = false;

/**
 * Compiles `src/**` once per test file with SWC into `node_modules/.cache/ledger-observability-build`
 * (its own directory, so it cannot race the projector tests' build) and returns that directory;
 * `src/main.js` there is the server entry point. Bare imports resolve to the root `node_modules`.
 */
export function buildSources(): string {
  if (!built) {
    execFileSync(process.execPath, ['--input-type=module', '-e', BUILD, ROOT, OUT], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    built = true;
  }
  return OUT;
}
