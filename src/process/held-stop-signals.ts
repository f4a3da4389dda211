/** Signals that stop the ledger: SIGTERM (service managers, `kill`), SIGINT (Ctrl-C), SIGHUP. */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** A repeat within this many ms is the same stop: npm forwards to node the signal node got too. */
export const SIGNAL_ECHO_MS = 1000;

/** Receives the stop signals once start-up is complete (`stopOnSignals`). */
export type StopSignalHandler = (signal: NodeJS.Signals) => void;

/** Told of start-up signals: `again` is true for a second one, after which the process exits 1. */
export type StartupSignalListener = (signal: NodeJS.Signals, again: boolean) => void;

/** The stop signals of a process that is starting (see {@link holdStopSignals}). */
export interface HeldStopSignals {
  /** The signal held during start-up, if one arrived (until it is delivered). */
  readonly held: NodeJS.Signals | undefined;
  /** Registers the one listener of start-up signals; told at once of a signal already held. */
  onStartupSignal(listener: StartupSignalListener): void;
  /**
   * Ends start-up: `handler` receives every later signal, and a held one at once. Once only.
   * @throws Error when called a second time.
   */
  deliverTo(handler: StopSignalHandler): void;
}

/** What {@link holdStopSignals} listens on and how it exits; the process's by default (tests pass others). */
export interface HoldOptions {
  /** Where the signals come from; default `process`. */
  readonly source?: Pick<NodeJS.Process, 'on'>;
  /** Ends the process; default `process.exit`. */
  readonly exit?: (code: number) => void;
  /** Monotonic clock in milliseconds; default `performance.now`. */
  readonly now?: () => number;
}

/**
 * Takes the {@link STOP_SIGNALS} from the process's first statement on, so a signal during
 * start-up never leaves the database half-opened: the first is held until
 * {@link HeldStopSignals.deliverTo}, a second exits 1 at once. Imports nothing, to load first.
 */
export function holdStopSignals(options: HoldOptions = {}): HeldStopSignals {
  const source = options.source ?? process;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const now = options.now ?? (() => performance.now());
  let last: { signal: NodeJS.Signals; at: number } | undefined;
  let held: NodeJS.Signals | undefined;
  let listener: StartupSignalListener | undefined;
  let handler: StopSignalHandler | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const at = now();
    if (last?.signal === signal && at - last.at < SIGNAL_ECHO_MS) return;
    last = { signal, at };
    if (handler) return handler(signal);
    if (held === undefined) {
      held = signal;
      listener?.(signal, false);
      return;
    }
    listener?.(signal, true);
    exit(1);
  };
  for (const signal of STOP_SIGNALS) source.on(signal, onSignal);
  return {
    get held() {
      return held;
    },
    onStartupSignal(l) {
      listener = l;
      if (held !== undefined) l(held, false);
    },
    deliverTo(h) {
      if (handler) throw new Error('the stop signals were already handed over');
      handler = h;
      const signal = held;
      held = undefined;
      if (signal !== undefined) h(signal);
    },
  };
}
