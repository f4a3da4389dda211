#!/usr/bin/env node
// `npm run release`: installable tarballs of the worker SDK and the operator CLI, for projects
// outside this repository while the packages are not on the npm registry (README "A worker with the SDK").
//   node scripts/release.mjs [--out <dir>] [--skip-build]
// Writes <out>/operation-ledger-protocol-<version>.tgz, <out>/operation-ledger-client-<version>.tgz
// and <out>/operation-ledger-cli-<version>.tgz (default out: ./release). The client tarball bundles
// the protocol, the CLI tarball the client and the protocol (npm's `bundleDependencies`), so each
// installs on its own: the registry is asked only for the packages' public dependencies. All ship
// their TypeScript sources, so the source and declaration maps (`../src/…`) resolve.
// npm does not pack the bundled dependencies of a workspace (they are hoisted to the root's
// node_modules), hence the client and the CLI are packed from staging copies with their bundled
// packages unpacked inside.
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

if (!args.includes('--skip-build')) npm(['run', '-s', 'build', '-w', '@operation-ledger/cli']); // builds the protocol and the client first
mkdirSync(out, { recursive: true });

/** Packs `dir` into `out` and returns the tarball's path (npm pack prints its file name last). */
function pack(dir) {
  const name = npm(['pack', dir, '--pack-destination', out, '--ignore-scripts', '--silent'])
    .trim()
    .split('\n')
    .pop();
  return join(out, name);
}

const readManifest = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/**
 * Packs the workspace package in `dir` with `bundled` (name → tarball) unpacked in its
 * node_modules and listed in `bundleDependencies`. npm installs nothing for a bundled package, so
 * the bundled packages' own dependencies (undici, …) become this package's, which they find by
 * climbing node_modules.
 */
function packBundling(dir, bundled) {
  const stage = mkdtempSync(join(tmpdir(), 'ledger-release-'));
  try {
    const manifest = readManifest(dir);
    for (const entry of manifest.files) cpSync(join(dir, entry), join(stage, entry), { recursive: true });
    delete manifest.scripts;
    delete manifest.devDependencies;
    manifest.bundleDependencies = Object.keys(bundled);
    for (const [name, tarball] of Object.entries(bundled)) {
      const { dependencies = {} } = readManifest(join(root, 'node_modules', name));
      for (const dep of Object.keys(dependencies).filter((d) => !(d in bundled))) {
        manifest.dependencies[dep] ??= dependencies[dep];
      }
      const into = join(stage, 'node_modules', name);
      mkdirSync(into, { recursive: true });
      execFileSync('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
    }
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return pack(stage);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

const protocolTarball = pack(join(root, 'packages/protocol'));
const clientTarball = packBundling(join(root, 'packages/client'), {
  '@operation-ledger/protocol': protocolTarball,
});
const cliTarball = packBundling(join(root, 'packages/cli'), {
  '@operation-ledger/client': clientTarball,
  '@operation-ledger/protocol': protocolTarball,
});
process.stdout.write(`${protocolTarball}\n${clientTarball}\n${cliTarball}\n`);
