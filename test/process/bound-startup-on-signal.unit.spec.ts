// A stop signal during start-up is logged and bounds the rest of the start-up by the grace.
import { jest } from '@jest/globals';
import { boundStartupOnSignal } from '../../src/process/bound-startup-on-signal.js';
import type { StartupSignalListener } from '../../src/process/held-stop-signals.js';

function setUp(graceMs = 1000) {
  let listener: StartupSignalListener | undefined;
  const lines: string[] = [];
  const exits: number[] = [];
  const logger = {
    log: (m: string) => void lines.push(`log ${m}`),
    warn: (m: string) => void lines.push(`warn ${m}`),
    error: (m: string) => void lines.push(`error ${m}`),
  };
  const bound = boundStartupOnSignal(
    { onStartupSignal: (l) => (listener = l) },
    logger,
    graceMs,
    (code) => void exits.push(code),
  );
  return { signal: (s: NodeJS.Signals, again = false) => listener!(s, again), lines, exits, bound };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

it('logs the held signal and exits 1 when start-up has not finished within the grace', () => {
  const { signal, lines, exits } = setUp(1000);
  signal('SIGTERM');
  expect(lines).toEqual(['log SIGTERM received during start-up: stopping once started']);
  jest.advanceTimersByTime(999);
  expect(exits).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(lines[1]).toBe('error start-up did not finish within 1000 ms of SIGTERM: exiting');
  expect(exits).toEqual([1]);
});

it('start-up finishing in time cancels the bound', () => {
  const { signal, lines, exits, bound } = setUp(1000);
  signal('SIGINT');
  bound.cancel();
  jest.advanceTimersByTime(5000);
  expect(lines).toHaveLength(1);
  expect(exits).toEqual([]);
});

it('no signal: no line, no bound; a second signal is warned of (the holder exits)', () => {
  const { signal, lines, exits } = setUp(1000);
  jest.advanceTimersByTime(5000);
  expect(lines).toEqual([]);
  signal('SIGTERM');
  signal('SIGTERM', true);
  expect(lines[1]).toBe('warn SIGTERM again during start-up: exiting at once');
  expect(exits).toEqual([]);
});
