#!/usr/bin/env node
// `npm run release`: installable tarballs of the worker SDK and the operator CLI, for projects
// outside this repository while the packages are not on the npm registry (README "A worker with the SDK").
//   node scripts/release.mjs [--out <dir>] [--skip-build]
// Writes <out>/operation-ledger-client-<version>.tgz and <out>/operation-ledger-cli-<version>.tgz
// (default out: ./release). The CLI tarball bundles the client (npm's `bundleDependencies`), so it
// installs on its own: the registry is asked only for the packages' public dependencies. Both ship
// their TypeScript sources, so the source and declaration maps (`../src/…`) resolve.
// npm does not pack the bundled dependencies of a workspace (they are hoisted to the root's
// node_modules), hence the CLI is packed from a staging copy with the client unpacked inside.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const out = resolve(outIndex >= 0 ? args[outIndex + 1] : join(root, 'release'));
const npm = (argv, cwd = root) =>
  execFileSync('npm', argv, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

if (!args.includes('--skip-build')) npm(['run', '-s', 'build', '-w', '@operation-ledger/cli']); // builds the client first
mkdirSync(out, { recursive: true });

/** Packs `dir` into `out` and returns the tarball's path (npm pack prints its file name last). */
function pack(dir) {
  const name = npm(['pack', dir, '--pack-destination', out, '--ignore-scripts', '--silent'])
    .trim()
    .split('\n')
    .pop();
  return join(out, name);
}

const clientTarball = pack(join(root, 'packages/client'));

const stage = mkdtempSync(join(tmpdir(), 'ledger-cli-release-'));
try {
  const cliDir = join(root, 'packages/cli');
  const manifest = JSON.parse(readFileSync(join(cliDir, 'package.json'), 'utf8'));
  for (const entry of manifest.files) cpSync(join(cliDir, entry), join(stage, entry), { recursive: true });
  delete manifest.scripts;
  delete manifest.devDependencies;
  manifest.bundleDependencies = ['@operation-ledger/client'];
  // npm installs nothing for a bundled package: the client's own dependencies (undici) become the
  // CLI's, which the bundled client finds by climbing node_modules.
  const client = JSON.parse(readFileSync(join(root, 'packages/client/package.json'), 'utf8'));
  manifest.dependencies = { ...manifest.dependencies, ...client.dependencies };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const bundled = join(stage, 'node_modules/@operation-ledger/client');
  mkdirSync(bundled, { recursive: true });
  execFileSync('tar', ['-xzf', clientTarball, '-C', bundled, '--strip-components=1']);
  const cliTarball = pack(stage);
  process.stdout.write(`${clientTarball}\n${cliTarball}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
