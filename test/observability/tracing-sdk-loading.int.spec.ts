// With tracing off (the default) the ledger must not load the OpenTelemetry SDK, exporter or
// instrumentations at all: only `@opentelemetry/api` (whose no-op tracer the `ledger.*` span
// helpers use). Loading the SDK cost every start of the server (and every test file that builds
// an application) about 2.5 CPU-seconds for nothing. With the preload and LEDGER_TRACING=on it is
// loaded — which also shows that the check below sees packages loaded through `import`.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildSources } from './support/build-sources.js';

const execFileAsync = promisify(execFile);

/** `@opentelemetry/*` packages loaded after importing the application's entry module. */
async function otelPackagesLoaded(
  build: string,
  env: Record<string, string>,
  preload: boolean,
): Promise<string[]> {
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
  const { stdout } = await execFileAsync(process.execPath, [...args, '--input-type=module', '-e', probe], {
    cwd: process.cwd(),
    env: { ...process.env, NODE_OPTIONS: '', OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
    encoding: 'utf8',
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as string[];
}

// The probes are separate processes that mostly wait on module loading: they start together once
// the sources are built (instead of one after another, test by test), and each test awaits its own.
const probes = new Map<string, Promise<string[]>>();
/** The probe for `tracing` with or without the preload, started once. */
function probe(build: string, tracing: 'on' | 'off', preload: boolean): Promise<string[]> {
  const key = `${tracing}/${preload}`;
  let p = probes.get(key);
  if (!p) {
    p = otelPackagesLoaded(build, { LEDGER_TRACING: tracing }, preload);
    p.catch(() => {}); // reported by the test that awaits it, not as an unhandled rejection
    probes.set(key, p);
  }
  return p;
}

let build: string;
beforeAll(() => {
  build = buildSources();
  probe(build, 'off', false);
  probe(build, 'off', true);
  probe(build, 'on', true);
}, 60_000);

it('tracing off: the application loads @opentelemetry/api and nothing else of OpenTelemetry', async () => {
  expect(await probe(build, 'off', false)).toEqual(['@opentelemetry/api']);
  expect(await probe(build, 'off', true)).toEqual(['@opentelemetry/api']);
}, 60_000);

it('tracing on through the preload: the SDK is loaded', async () => {
  expect(await probe(build, 'on', true)).toContain('@opentelemetry/sdk-node');
}, 60_000);
