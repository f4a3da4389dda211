// `npm run build:bundle` (part of `npm run build`): bundles the compiled server, dist/src/main.js,
// into dist/server/main.js, which `npm start` and the container image run. A start spent most of
// its time loading ES modules one by one (resolution, file reads, compilation); the bundle is one
// file plus lazily loaded chunks (docs/decisions.md "The server starts from a
// bundle"). dist/src stays the unbundled build that tools and tests import.
//
// Left outside the bundle, loaded from node_modules as before:
// - what OpenTelemetry's preload patches when tracing is on (pg, the OpenTelemetry packages
//   themselves: one copy of the API's global registry); Fastify is bundled: its instrumentation
//   listens on Fastify's diagnostics channel, which works on a bundled copy too;
// - packages that find their own files on disk (PGlite's wasm and data, swagger-ui-dist's assets,
//   pino's transports in worker threads) or load native or optional modules (the EventStoreDB
//   client and gRPC, loaded only for that store; Nest's optional transports);
// - class-validator and class-transformer: Nest's pipes load them as optional packages (bundled,
//   `plainToInstance` was not found), and the DTOs' decorators must use that same copy;
// - reflect-metadata, which the banner imports first in every output file;
// - every package not installed (Nest's optional peers), which Nest requires inside try/catch.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { build } from 'esbuild';
import { classNamesOnly } from './class-names-only.mjs';
import { SERVER_BUNDLE_BANNER, SERVER_BUNDLE_EXTERNALS } from './server-bundle-options.mjs';

const { outputFiles } = await build({
  // The embedded database's worker thread (pglite-thread.ts) loads its script from beside the
  // module that starts it: here, next to main.js and its chunks.
  entryPoints: {
    main: 'dist/src/main.js',
    'pglite-thread-worker': 'dist/src/event-store/postgres/pglite-thread-worker.js',
  },
  outdir: 'dist/server',
  bundle: true,
  splitting: true, // dynamic imports (the EventStoreDB store) stay separate, loaded when used
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Nest names providers, modules and log contexts by their class names; function names are
  // dropped from the helper after the build (scripts/class-names-only.mjs).
  keepNames: true,
  write: false,
  sourcemap: true,
  external: SERVER_BUNDLE_EXTERNALS,
  banner: SERVER_BUNDLE_BANNER,
  logLevel: 'warning',
});
for (const file of classNamesOnly(outputFiles)) {
  await mkdir(dirname(file.path), { recursive: true });
  await writeFile(file.path, file.contents);
}
