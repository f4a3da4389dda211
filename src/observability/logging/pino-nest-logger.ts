import type { LoggerService, LogLevel } from '@nestjs/common';
import type { Logger } from 'pino';

type PinoLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

const LEVELS: Record<LogLevel, PinoLevel> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/** Contexts of Nest's start-up chatter (one line per module and route): written at debug. */
const BOOT_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/**
 * Nest's {@link LoggerService} over a pino logger, so Nest's lines and every `new Logger('Context')`
 * come out as the same JSON lines (log → info, verbose → trace). The level filter is pino's
 * (`LEDGER_LOG_LEVEL`); Nest's `setLogLevels` is ignored.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('log', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('verbose', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: LogLevel, message: unknown, params: unknown[]): void {
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const pinoLevel = level === 'log' && BOOT_CONTEXTS.has(String(context)) ? 'debug' : LEVELS[level];
    if (!this.logger.isLevelEnabled(pinoLevel)) return;
    const fields: Record<string, unknown> = context ? { context } : {};
    if (level === 'error' && typeof rest[0] === 'string' && rest[0].includes('\n    at '))
      fields.err = { stack: rest.shift() };
    // Nest passes `undefined` for an absent stack or context: not worth a `details: [null]`
    const details = rest.filter((p) => p !== undefined && p !== null);
    if (details.length > 0) fields.details = details;
    if (message instanceof Error) {
      this.logger[pinoLevel]({ ...fields, err: message }, message.message);
    } else if (message !== null && typeof message === 'object') {
      this.logger[pinoLevel]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[pinoLevel](fields, String(message));
    }
  }
}
