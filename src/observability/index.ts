/**
 * Observability of the ledger (docs/observability.md): pino JSON logs,
 * request correlation and W3C trace context, OpenTelemetry spans. The tracing SDK itself starts
 * from the `--import` preload `tracing/register-tracing.ts`, not from here.
 */
export {
  correlationFromHeaders,
  correlationMetadata,
  correlationOf,
  type RequestCorrelation,
} from './http/correlation.js';
export { parseTraceparent, parseTracestate, type TraceParent } from './http/trace-context.js';
export {
  keepBodyForRequestLog,
  requestLogging,
  type RequestLogLine,
} from './http/request-logging.middleware.js';
export { recordRouteTemplate, routeTemplateOf } from '../common/route-template.js';
export { createLogger, rootLogger } from './logging/create-logger.js';
export { LogConfigError, logOptionsFromEnv, type LogOptions } from './logging/log-options.js';
export { PinoNestLogger } from './logging/pino-nest-logger.js';
export { scrubSecrets } from './logging/redaction.js';
export {
  logDomainEvent,
  logProjectorTakeover,
  type EventLogContext,
  type EventLogger,
} from './events/domain-event-log.js';
export { nestEventLogger } from './events/nest-event-logger.js';
export {
  LEDGER_ATTRIBUTES,
  LEDGER_SPANS,
  ledgerAttributes,
  withLedgerSpan,
  withLedgerSpanSync,
  type LedgerSpanFields,
} from './tracing/ledger-spans.js';
export { tracingEnabled } from './tracing/tracing-config.js';
export { ObservabilityModule } from './observability.module.js';
export { ledgerNestLogger, requestObservability } from './request-observability.js';
