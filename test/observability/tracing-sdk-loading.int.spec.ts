// With tracing off (the default) the ledger must not load the OpenTelemetry SDK, exporter or
// instrumentations at all: only `@opentelemetry/api` (whose no-op tracer the `ledger.*` span
// helpers use). Loading the SDK cost every start of the server (and every test file that builds
// an application) about 2.5 CPU-seconds for nothing. With the preload and LEDGER_TRACING=on it is
// loaded — which also shows that the check below sees packages loaded through `import`.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildSources } from './support/build-sources.js';

/** `@opentelemetry/*` packages loaded after importing the application's entry module. */
function otelPackagesLoaded(build: string, env: Record<string, string>, preload: boolean): string[] {
  const probe = `
    import { createRequire } from 'node:module';
    import { pathToFileURL } from 'node:url';
    await import(pathToFileURL(${JSON.stringify(join(build, 'src/create-ledger-app.js'))}).href);
    const loaded = Object.keys(createRequire(import.meta.url).cache)
      .map((f) => f.match(/node_modules\\/(@opentelemetry\\/[^/]+)\\//)?.[1])
      .filter(Boolean);
    console.log(JSON.stringify([...new Set(loaded)].sort()));
  `;
  const args = preload ? ['--import', join(build, 'src/observability/tracing/register-tracing.js')] : [];
  const out = execFileSync(process.execPath, [...args, '--input-type=module', '-e', probe], {
    cwd: process.cwd(),
    env: { ...process.env, NODE_OPTIONS: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as string[];
}

let build: string;
beforeAll(() => {
  build = buildSources();
}, 60_000);

it('tracing off: the application loads @opentelemetry/api and nothing else of OpenTelemetry', () => {
  expect(otelPackagesLoaded(build, { LEDGER_TRACING: 'off' }, false)).toEqual(['@opentelemetry/api']);
  expect(otelPackagesLoaded(build, { LEDGER_TRACING: 'off' }, true)).toEqual(['@opentelemetry/api']);
}, 60_000);

it('tracing on through the preload: the SDK is loaded', () => {
  expect(otelPackagesLoaded(build, { LEDGER_TRACING: 'on' }, true)).toContain('@opentelemetry/sdk-node');
}, 60_000);
