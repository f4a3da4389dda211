import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { alive } from '../../src/event-store/postgres/data-dir-lock.js';

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
 * full `tsc` build costs ~15 s of a test's budget) into `node_modules/.cache/<name>-<pid>`, once
 * per test file and name, and returns that directory. The directory is this Jest worker's own:
 * test files run one after another in a worker, but files in other workers build at the same
 * time, and a shared directory was emptied under a server another file was starting from it
 * (ERR_MODULE_NOT_FOUND). Directories of workers that are gone are removed. Bare imports there
 * resolve to the root `node_modules`.
 */
export function swcBuild(name: string): string {
  const cache = join(ROOT, 'node_modules/.cache');
  const out = join(cache, `${name}-${process.pid}`);
  if (!built.has(out)) {
    for (const entry of existsSync(cache) ? readdirSync(cache) : []) {
      const pid = Number(entry.slice(name.length + 1));
      if (entry.startsWith(`${name}-`) && Number.isInteger(pid) && pid > 0 && !alive(pid)) {
        rmSync(join(cache, entry), { recursive: true, force: true });
      }
    }
    execFileSync(process.execPath, ['--input-type=module', '-e', BUILD, ROOT, out], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    built.add(out);
  }
  return out;
}
