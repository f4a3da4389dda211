/** Levels `LEDGER_LOG_LEVEL` accepts (pino's, lowest volume first; `silent` logs nothing). */
export const LOG_LEVELS = ['silent', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

/** How the ledger logs. */
export interface LogOptions {
  /** Lowest level written. Default `info`. */
  readonly level: LogLevelName;
  /** Human-readable lines (pino-pretty) instead of JSON lines. */
  readonly pretty: boolean;
}

/** A log setting that cannot be used; names the variable. */
export class LogConfigError extends Error {
  override readonly name = 'LogConfigError';
}

/**
 * Log options from `LEDGER_LOG_LEVEL` and `LEDGER_LOG_FORMAT` (docs/running.md "Observability");
 * unset format: pretty only when stdout is a terminal, so collectors get JSON lines.
 * @throws LogConfigError for any other value of either variable.
 */
export function logOptionsFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  isTty: boolean = process.stdout.isTTY === true,
): LogOptions {
  const level = (env.LEDGER_LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevelName;
  if (!LOG_LEVELS.includes(level)) {
    throw new LogConfigError(
      `LEDGER_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LEDGER_LOG_LEVEL}"`,
    );
  }
  const format = env.LEDGER_LOG_FORMAT?.trim().toLowerCase();
  if (format && format !== 'json' && format !== 'pretty') {
    throw new LogConfigError(`LEDGER_LOG_FORMAT must be json or pretty, got "${env.LEDGER_LOG_FORMAT}"`);
  }
  return { level, pretty: format ? format === 'pretty' : isTty };
}
