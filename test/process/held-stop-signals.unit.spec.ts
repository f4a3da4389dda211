// The stop signals of a starting process: held until start-up hands them over, a second one
// during start-up exits 1, and after the hand-over every signal goes to the handler.
import { EventEmitter } from 'node:events';
import { holdStopSignals, STOP_SIGNALS } from '../../src/process/held-stop-signals.js';

function holder() {
  const source = new EventEmitter();
  const exits: number[] = [];
  const clock = { ms: 0 };
  const signals = holdStopSignals({
    source: source as unknown as Pick<NodeJS.Process, 'on'>,
    exit: (code) => void exits.push(code),
    now: () => clock.ms,
  });
  const send = (signal: NodeJS.Signals) => source.emit(signal, signal);
  return { source, exits, signals, send, clock };
}

it('listens for SIGTERM, SIGINT and SIGHUP', () => {
  const { source } = holder();
  expect(STOP_SIGNALS).toEqual(['SIGTERM', 'SIGINT', 'SIGHUP']);
  for (const signal of STOP_SIGNALS) expect(source.listenerCount(signal)).toBe(1);
});

it('holds a signal during start-up, tells the listener (also one registered later), delivers it at the hand-over', () => {
  const { exits, signals, send } = holder();
  send('SIGTERM');
  expect(signals.held).toBe('SIGTERM');
  const told: [string, boolean][] = [];
  signals.onStartupSignal((signal, again) => told.push([signal, again]));
  expect(told).toEqual([['SIGTERM', false]]);
  const delivered: string[] = [];
  signals.deliverTo((signal) => delivered.push(signal));
  expect(delivered).toEqual(['SIGTERM']);
  expect(signals.held).toBeUndefined();
  send('SIGINT'); // after the hand-over: the handler's (its second-signal rule applies)
  expect(delivered).toEqual(['SIGTERM', 'SIGINT']);
  expect(exits).toEqual([]);
});

it('a second signal during start-up exits 1 at once, after telling the listener', () => {
  const { exits, signals, send, clock } = holder();
  const told: [string, boolean][] = [];
  signals.onStartupSignal((signal, again) => told.push([signal, again]));
  send('SIGHUP');
  expect(exits).toEqual([]);
  clock.ms += 10;
  send('SIGTERM');
  expect(told).toEqual([
    ['SIGHUP', false],
    ['SIGTERM', true],
  ]);
  expect(exits).toEqual([1]);
});

it('without a signal the hand-over delivers nothing; it happens once', () => {
  const { signals, send } = holder();
  const delivered: string[] = [];
  signals.deliverTo((signal) => delivered.push(signal));
  expect(delivered).toEqual([]);
  send('SIGTERM');
  expect(delivered).toEqual(['SIGTERM']);
  expect(() => signals.deliverTo(() => undefined)).toThrow(/already handed over/);
});

it('the same signal again within a second is one stop (Ctrl-C reaches node directly and through npm)', () => {
  const { exits, signals, send, clock } = holder();
  const told: [string, boolean][] = [];
  signals.onStartupSignal((signal, again) => told.push([signal, again]));
  send('SIGINT');
  clock.ms += 5;
  send('SIGINT'); // npm's forward of the same Ctrl-C
  expect(told).toEqual([['SIGINT', false]]);
  expect(exits).toEqual([]);
  const delivered: string[] = [];
  signals.deliverTo((signal) => delivered.push(signal));
  clock.ms += 2_000;
  send('SIGINT'); // a real second Ctrl-C, after the hand-over: the handler's
  clock.ms += 5;
  send('SIGINT'); // and its echo
  expect(delivered).toEqual(['SIGINT', 'SIGINT']);
  clock.ms += 990;
  send('SIGINT'); // within a second of the one taken: still one stop
  expect(delivered).toEqual(['SIGINT', 'SIGINT']);
  clock.ms += 10;
  send('SIGINT');
  expect(delivered).toEqual(['SIGINT', 'SIGINT', 'SIGINT']);
});
