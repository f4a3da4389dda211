/**
 * Whether the OpenTelemetry SDK starts (docs/running.md "Observability"): on when `LEDGER_TRACING=on`
 * (also `true`/`1`), or when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces-only
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) names a collector; `LEDGER_TRACING=off` and the standard
 * `OTEL_SDK_DISABLED=true` switch it off whatever else is set. Off by default: no SDK, no hooks,
 * and the `ledger.*` span helpers run on the API's no-op tracer.
 * @throws Error naming `LEDGER_TRACING` when it is set to something other than on/off.
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const flag = env.LEDGER_TRACING?.trim().toLowerCase();
  if (flag === 'on' || flag === 'true' || flag === '1') return true;
  if (flag === 'off' || flag === 'false' || flag === '0') return false;
  if (flag) throw new Error(`LEDGER_TRACING must be "on" or "off", got "${env.LEDGER_TRACING}"`);
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** `service.name` of the ledger's spans: `OTEL_SERVICE_NAME`, else `operation-ledger`. */
export function serviceNameOf(env: NodeJS.ProcessEnv = process.env): string {
  return env.OTEL_SERVICE_NAME?.trim() || 'operation-ledger';
}
