/**
 * Preload for `node --import ./dist/src/observability/tracing/register-tracing.js dist/src/main.js`
 * (docs/running.md "Observability"). When {@link tracingEnabled} it registers the ESM loader hook of
 * `@opentelemetry/instrumentation` (import-in-the-middle) so the ledger's ES-module imports of
 * `pg` and `http` can be patched (Fastify is traced through its diagnostics channel), then starts
 * the SDK — both before the application's module graph loads, which an import inside `main.ts`
 * would be too late for. Otherwise it does nothing: no hook, no SDK.
 */
import { register } from 'node:module';
import { tracingEnabled } from './tracing-config.js';

if (tracingEnabled(process.env)) {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const { startTracing } = await import('./start-tracing.js');
  startTracing(process.env);
}
