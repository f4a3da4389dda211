import { pino, type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { logOptionsFromEnv, type LogOptions } from './log-options.js';
import { REDACT_PATHS, REDACTED, scrubSecrets } from './redaction.js';

/**
 * A pino logger writing JSON lines (docs/observability.md "Logs") or, with `options.pretty`,
 * pino-pretty lines. Credentials never reach the output: {@link REDACT_PATHS} are replaced and
 * messages and stacks pass through {@link scrubSecrets}. `destination` defaults to stdout.
 */
export function createLogger(options: LogOptions, destination?: DestinationStream): Logger {
  const stream =
    destination ??
    (options.pretty
      ? pretty({ colorize: process.stdout.isTTY === true, translateTime: 'SYS:standard', sync: true })
      : pino.destination({ dest: 1, sync: false }));
  return pino(
    {
      level: options.level,
      base: { service: 'operation-ledger' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACT_PATHS], censor: REDACTED },
      serializers: { err: errorSerializer },
      hooks: {
        logMethod(args, method) {
          method.apply(
            this,
            args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a)) as Parameters<typeof method>,
          );
        },
      },
    },
    stream,
  );
}

/** pino's standard error serializer with the message and stack scrubbed of secrets. */
function errorSerializer(err: unknown): unknown {
  const serialized = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!serialized || typeof serialized !== 'object') return serialized;
  for (const field of ['message', 'stack'])
    if (typeof serialized[field] === 'string') serialized[field] = scrubSecrets(serialized[field]);
  return serialized;
}

let root: Logger | null = null;

/**
 * The process's root logger, made on first use from the environment ({@link logOptionsFromEnv}).
 * @throws LogConfigError when `LEDGER_LOG_LEVEL` or `LEDGER_LOG_FORMAT` is invalid.
 */
export function rootLogger(): Logger {
  return (root ??= createLogger(logOptionsFromEnv()));
}

/** Writes out buffered lines of the root logger, if it was made. */
export function flushRootLogger(): void {
  root?.flush();
}
