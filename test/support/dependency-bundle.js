/**
 * The server's framework — Nest, its CQRS module, its Fastify platform, its OpenAPI module and
 * Fastify — bundled for the tests as the server itself runs it (scripts/bundle-server.mjs, same
 * esbuild options and the same packages left outside), so that a test file loads a few big modules
 * instead of some 900 small ones.
 *
 * Why: Jest gives every test file its own module registry, and its ES-module loader resolves,
 * reads, compiles and links each module one at a time. Importing `src/create-ledger-app.ts` cost
 * 2.6–3.0 CPU-s per test file that builds an app (`@nestjs/core` ≈ 0.76, `@nestjs/swagger` ≈ 0.45,
 * Fastify ≈ 0.17) and 1.7–2.2 CPU-s with this bundle, on the 2-core machine; the suite has some 90
 * such files. `LEDGER_TEST_UNBUNDLED=1` runs the tests on the packages as installed.
 *
 * Built with esbuild once per lockfile (and per version of this file) into
 * `node_modules/.cache/operation-ledger-tests/deps-<hash>/`: first into a directory of its own,
 * then renamed into place, so a concurrent run never sees a partial bundle. Plain JavaScript: Jest
 * loads its configuration before any transform.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renameIntoPlace } from './rename-into-place.js';
import { SERVER_BUNDLE_BANNER, SERVER_BUNDLE_EXTERNALS } from '../../scripts/server-bundle-options.mjs';

/** Package (as imported) → output file name. Every package the bundle contains that tests or
 * `src/` import must be an entry: importing it from node_modules as well would load a second copy. */
const ENTRIES = {
  '@nestjs/common': 'nestjs-common',
  '@nestjs/core': 'nestjs-core',
  '@nestjs/cqrs': 'nestjs-cqrs',
  '@nestjs/platform-fastify': 'nestjs-platform-fastify',
  '@nestjs/swagger': 'nestjs-swagger',
  fastify: 'fastify',
  '@fastify/static': 'fastify-static',
  '@fastify/middie': 'fastify-middie',
};

/**
 * Builds the bundle when missing and answers Jest `moduleNameMapper` entries that send each
 * package of {@link ENTRIES} to it (`{ '^@nestjs/core$': '/…/deps-<hash>/nestjs-core.mjs', … }`),
 * or `{}` when `LEDGER_TEST_UNBUNDLED` is set.
 * @param {string} rootDir the repository's root (holds package-lock.json and node_modules)
 * @returns {Promise<Record<string, string>>}
 * @throws esbuild's error when a package cannot be bundled
 */
export async function bundledDependencies(rootDir) {
  if (process.env.LEDGER_TEST_UNBUNDLED) return {};
  const hash = createHash('sha256')
    .update(readFileSync(join(rootDir, 'package-lock.json')))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(JSON.stringify([SERVER_BUNDLE_EXTERNALS, SERVER_BUNDLE_BANNER]))
    .digest('hex')
    .slice(0, 16);
  const dir = join(rootDir, 'node_modules', '.cache', 'operation-ledger-tests', `deps-${hash}`);
  if (!existsSync(dir)) await buildInto(dir, rootDir);
  return Object.fromEntries(
    Object.entries(ENTRIES).map(([name, file]) => [
      `^${name.replace(/[/.]/g, '\\$&')}$`,
      join(dir, `${file}.mjs`),
    ]),
  );
}

async function buildInto(dir, rootDir) {
  const partial = `${dir}.${process.pid}.${Date.now()}`;
  await build({
    absWorkingDir: rootDir,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [file, name])),
    outdir: partial,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    keepNames: true,
    external: SERVER_BUNDLE_EXTERNALS,
    banner: SERVER_BUNDLE_BANNER,
    logLevel: 'error',
  });
  renameIntoPlace(partial, dir);
}
