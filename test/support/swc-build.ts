import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { alive } from '../../src/event-store/postgres/data-dir-lock.js';
import { renameIntoPlace } from './rename-into-place.js';

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

/** Files under `dir` (recursively) that the build compiles: `*.ts` but not `*.spec.ts`. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * Hex digest of what the build's output depends on: this build script, `.swcrc`, the installed
 * `@swc/core` and every compiled source (path and content).
 */
function buildKey(): string {
  const hash = createHash('sha256').update(BUILD);
  hash.update(readFileSync(join(ROOT, '.swcrc')));
  hash.update(readFileSync(join(ROOT, 'node_modules/@swc/core/package.json')));
  for (const file of sourcesUnder(join(ROOT, 'src'))) {
    hash.update(`\0${relative(ROOT, file)}\0`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Entries of `cache` made by this module that no running build needs any more. */
function stale(cache: string, current: string): string[] {
  const dayAgo = Date.now() - 24 * 3600_000;
  return readdirSync(cache).filter((entry) => {
    // `<PREFIX><key>.tmp-<pid>`: an unfinished build of a worker that is gone.
    const tmp = /^ledger-swc-build-[0-9a-f]+\.tmp-(\d+)$/.exec(entry);
    if (tmp) return !alive(Number(tmp[1]));
    // A finished build of other sources: a worker may still run a server from it (the sources
    // changed during a run), so only after a day.
    if (/^ledger-swc-build-[0-9a-f]+$/.test(entry) && entry !== current) {
      return statSync(join(cache, entry)).mtimeMs < dayAgo;
    }
    // The per-worker builds of earlier versions of this module (`<name>-<pid>`).
    const legacy = /^ledger-(?:observability|projector)-build-(\d+)$/.exec(entry);
    return legacy !== null && !alive(Number(legacy[1]));
  });
}

/**
 * Compiles `src/**` with SWC (not type-checked: `npx tsc` does that; well under a second, where a
 * full `tsc` build costs ~15 s of a test's budget) into `node_modules/.cache/ledger-swc-build-<key>`
 * and returns that directory; `<key>` is a hash of the sources and the build's settings. A
 * directory is complete once it has its name (built under a temporary name, then renamed) and is
 * never written again, so every test file and Jest worker — and the next run, while no source
 * changed — reuses it instead of compiling its own copy, and a build cannot empty a directory a
 * server of another file is starting from. Bare imports there resolve to the root `node_modules`.
 * @throws Error from `execFileSync` when the build fails.
 */
export function swcBuild(): string {
  const cache = join(ROOT, 'node_modules/.cache');
  const name = `ledger-swc-build-${buildKey()}`;
  const out = join(cache, name);
  if (existsSync(out)) return out;
  mkdirSync(cache, { recursive: true });
  for (const entry of stale(cache, name)) rmSync(join(cache, entry), { recursive: true, force: true });
  const tmp = `${out}.tmp-${process.pid}`;
  execFileSync(process.execPath, ['--input-type=module', '-e', BUILD, ROOT, tmp], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  renameIntoPlace(tmp, out);
  return out;
}
