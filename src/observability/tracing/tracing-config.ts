/**
 * Whether the OpenTelemetry SDK starts (docs/observability.md "Correlation and tracing"): with
 * `LEDGER_TRACING=on` or an OTLP endpoint set; `LEDGER_TRACING=off` and `OTEL_SDK_DISABLED=true`
 * win. Off by default.
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
