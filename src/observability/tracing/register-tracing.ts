/**
 * Preload for `node --import ./dist/src/observability/tracing/register-tracing.js dist/src/main.js`
 * (docs/running.md "Observability"). When {@link tracingEnabled} it registers the ESM loader hook
 * so ES-module imports of `pg` and `http` can be patched, then starts the SDK — before the module
 * graph loads, which an import inside `main.ts` would be too late for.
 */
import { register } from 'node:module';
import { tracingEnabled } from './tracing-config.js';

if (tracingEnabled(process.env)) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const { startTracing } = await import('./start-tracing.js');
  startTracing(process.env);
}
