import { Writable } from 'node:stream';
import {
  createLogger,
  LogConfigError,
  logOptionsFromEnv,
  PinoNestLogger,
  scrubSecrets,
} from '../../src/observability/index.js';

const TOKEN = `olk_0123456789abcdef01234567_${'S'.repeat(43)}`;

function memoryLogger(level: 'info' | 'debug' = 'info') {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  return { logger: createLogger({ level, pretty: false }, stream), lines };
}

describe('logOptionsFromEnv', () => {
  it('is JSON at info unless stdout is a terminal or LEDGER_LOG_FORMAT=pretty', () => {
    expect(logOptionsFromEnv({}, false)).toEqual({ level: 'info', pretty: false });
    expect(logOptionsFromEnv({}, true)).toEqual({ level: 'info', pretty: true });
    expect(logOptionsFromEnv({ LEDGER_LOG_FORMAT: 'pretty' }, false).pretty).toBe(true);
    expect(logOptionsFromEnv({ LEDGER_LOG_FORMAT: 'json' }, true).pretty).toBe(false);
    expect(logOptionsFromEnv({ LEDGER_LOG_LEVEL: 'DEBUG' }, false).level).toBe('debug');
  });

  it('names the variable of a bad value', () => {
    expect(() => logOptionsFromEnv({ LEDGER_LOG_LEVEL: 'loud' }, false)).toThrow(LogConfigError);
    expect(() => logOptionsFromEnv({ LEDGER_LOG_LEVEL: 'loud' }, false)).toThrow(/LEDGER_LOG_LEVEL/);
    expect(() => logOptionsFromEnv({ LEDGER_LOG_FORMAT: 'xml' }, false)).toThrow(/LEDGER_LOG_FORMAT/);
  });
});

describe('the logger', () => {
  it('writes JSON lines with level names and ISO times', () => {
    const { logger, lines } = memoryLogger();
    logger.info({ a: 1 }, 'hello');
    expect(lines[0]).toMatchObject({ level: 'info', service: 'operation-ledger', a: 1, msg: 'hello' });
    expect(new Date(lines[0]!.time).toISOString()).toBe(lines[0]!.time);
  });

  it('redacts authorization headers and token fields, and scrubs tokens out of messages and errors', () => {
    const { logger, lines } = memoryLogger();
    logger.info(
      { req: { headers: { authorization: `Bearer ${TOKEN}` } }, key: { token: TOKEN } },
      `got ${TOKEN}`,
    );
    logger.error({ err: new Error(`bad token ${TOKEN}`) }, 'failed');
    const out = JSON.stringify(lines);
    expect(out).not.toContain('S'.repeat(43));
    expect(lines[0]!.req.headers.authorization).toBe('[redacted]');
    expect(lines[0]!.key.token).toBe('[redacted]');
    expect(lines[0]!.msg).toBe('got olk_0123456789abcdef01234567_[redacted]');
    expect(lines[1]!.err.message).toBe('bad token olk_0123456789abcdef01234567_[redacted]');
  });

  it('scrubSecrets removes bearer credentials and URL passwords', () => {
    expect(scrubSecrets('Authorization: Bearer abc.def')).toBe('Authorization: Bearer [redacted]');
    expect(scrubSecrets('postgres://ledger:hunter2@db:5432/x')).toBe(
      'postgres://ledger:[redacted]@db:5432/x',
    );
  });
});

describe('PinoNestLogger', () => {
  it('maps Nest levels and contexts onto pino lines', () => {
    const { logger, lines } = memoryLogger('debug');
    const nest = new PinoNestLogger(logger);
    nest.log('listening', 'Ledger');
    nest.warn({ job: 'sweeper' }, 'BackgroundJobs');
    nest.error('boom', 'Error: boom\n    at x (y.js:1:1)', 'ExceptionsHandler');
    nest.verbose('very', 'Ctx');
    nest.log('Mapped {/health, GET} route', 'RouterExplorer');
    expect(lines[0]).toMatchObject({ level: 'info', context: 'Ledger', msg: 'listening' });
    expect(lines[1]).toMatchObject({ level: 'warn', context: 'BackgroundJobs', job: 'sweeper' });
    expect(lines[2]).toMatchObject({ level: 'error', context: 'ExceptionsHandler', msg: 'boom' });
    expect(lines[2]!.err.stack).toContain('at x');
    expect(lines.find((l) => l.msg === 'very')).toBeUndefined(); // verbose = trace, below debug
    expect(lines[3]).toMatchObject({ level: 'debug', context: 'RouterExplorer' });
  });
});
