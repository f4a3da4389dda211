import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = process.cwd();

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

const built = new Set<string>();

/**
 * Compiles `src/**` with SWC (not type-checked: `npx tsc` does that; well under a second, where a
 * full `tsc` build costs ~15 s of a test's budget) into `node_modules/.cache/<name>`, once per
 * test file and name — each caller its own directory, so parallel test files cannot race one
 * build — and returns that directory. Bare imports there resolve to the root `node_modules`.
 */
export function swcBuild(name: string): string {
  const out = join(ROOT, 'node_modules/.cache', name);
  if (!built.has(out)) {
    execFileSync(process.execPath, ['--input-type=module', '-e', BUILD, ROOT, out], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    built.add(out);
  }
  return out;
}
