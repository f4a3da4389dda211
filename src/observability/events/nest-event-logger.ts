import { Logger } from '@nestjs/common';
import type { EventLogger } from './domain-event-log.js';

/** An {@link EventLogger} over a Nest `Logger` of `context` (pino's in a running ledger). */
export function nestEventLogger(context: string): EventLogger {
  const logger = new Logger(context);
  return {
    info: (fields, message) => logger.log({ ...fields, msg: message }),
    warn: (fields, message) => logger.warn({ ...fields, msg: message }),
    debug: (fields, message) => logger.debug({ ...fields, msg: message }),
  };
}
