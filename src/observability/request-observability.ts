import type { LoggerService, LogLevel } from '@nestjs/common';
import type { NodeMiddleware } from '../common/node-middleware.js';
import { rootLogger } from './logging/create-logger.js';
import { PinoNestLogger } from './logging/pino-nest-logger.js';
import { correlationOf } from './http/correlation.js';
import { requestLogging } from './http/request-logging.middleware.js';

let nestLogger: PinoNestLogger | null = null;

/**
 * The Nest logger of a running ledger: {@link PinoNestLogger} over {@link rootLogger}, one per
 * process. Pass it to `NestFactory.create` and `Logger.overrideLogger`.
 * @throws LogConfigError when `LEDGER_LOG_LEVEL` or `LEDGER_LOG_FORMAT` is invalid.
 */
export function ledgerNestLogger(): LoggerService {
  return (nestLogger ??= new PinoNestLogger(rootLogger()));
}

/** The first middleware: correlation, and the request log unless `nestLogger` silences logging. */
export function requestObservability(nestLogger?: false | LogLevel[] | LoggerService): NodeMiddleware {
  const silenced = nestLogger === false || (Array.isArray(nestLogger) && !nestLogger.includes('log'));
  if (!silenced) return requestLogging(rootLogger());
  return (req, res, next) => {
    res.setHeader('X-Request-Id', correlationOf(req).correlationId);
    next();
  };
}
