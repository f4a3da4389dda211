import { Logger } from '@nestjs/common';
import type { EventLogger } from './domain-event-log.js';

/**
 * An {@link EventLogger} over a Nest `Logger` of `context`: in a running ledger Nest's logger is
 * the pino one (`ledgerNestLogger`), so a domain-event line is one JSON object with its fields and
 * `msg`; an app created with `logger: false` (as tests do) silences it with the rest of Nest's
 * logging.
 */
export function nestEventLogger(context: string): EventLogger {
  const logger = new Logger(context);
  return {
    info: (fields, message) => logger.log({ ...fields, msg: message }),
    warn: (fields, message) => logger.warn({ ...fields, msg: message }),
    debug: (fields, message) => logger.debug({ ...fields, msg: message }),
  };
}
