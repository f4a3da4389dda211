import { parseArgs } from 'node:util';

/** Knobs of one chaos run (`npm run demo:chaos -- --help` lists the flags). */
export interface ChaosOptions {
  readonly seed: number;
  /** Worker processes kept alive (a killed one is replaced). */
  readonly workers: number;
  /** Use at most this many distinct intents (all the examples yield, when undefined). */
  readonly limit?: number;
  /** Probability that one delivery attempt ends in a SIGKILL at a random kill point. */
  readonly killRate: number;
  /** Kills every kill point gets at least (its first arrivals are killed). */
  readonly minKillsPerPoint: number;
  /** A message is killed at most this many times. */
  readonly maxKillsPerMessage: number;
  /** No more kills after this many. */
  readonly maxKills: number;
  /** Lease each claim asks for, ms (>= 1 000); workers never renew it. */
  readonly leaseMs: number;
  /** The in-process ledger's lease-sweeper interval, ms. */
  readonly sweepIntervalMs: number;
  /** Worker's client timeout for the ticket system, ms (< leaseMs). */
  readonly ticketTimeoutMs: number;
  /** Share of ticket creates that save and answer after the worker's timeout (Unknown reported). */
  readonly faultRate: number;
  /** Extra wait after a `409 in-progress` Retry-After before a worker claims again, ms. */
  readonly inProgressBackoffMs: number;
  /** Pause between the recovery worker's passes over the review queues, ms. */
  readonly recoveryIntervalMs: number;
  /** Give up (and report what is unsettled) after this long, ms. */
  readonly timeoutMs: number;
}

/** Defaults of `npm run demo:chaos`. */
export const DEFAULT_CHAOS_OPTIONS: ChaosOptions = {
  seed: 7,
  workers: 6,
  killRate: 0.25,
  minKillsPerPoint: 2,
  maxKillsPerMessage: 2,
  maxKills: 200,
  leaseMs: 1_500,
  sweepIntervalMs: 200,
  ticketTimeoutMs: 600,
  faultRate: 0.05,
  inProgressBackoffMs: 500,
  recoveryIntervalMs: 250,
  timeoutMs: 180_000,
};

/** Usage text for `--help`. */
export const CHAOS_USAGE = `Usage: npm run demo:chaos -- [options]

  --seed <n>           seed of every random choice (default ${DEFAULT_CHAOS_OPTIONS.seed})
  --workers <n>        worker processes (default ${DEFAULT_CHAOS_OPTIONS.workers})
  --limit <n>          use at most n distinct intents (default: all the examples yield)
  --kill-rate <p>      share of delivery attempts SIGKILLed at a random point (default ${DEFAULT_CHAOS_OPTIONS.killRate})
  --min-kills <n>      kills each kill point gets at least (default ${DEFAULT_CHAOS_OPTIONS.minKillsPerPoint})
  --lease-ms <n>       lease of every claim, never renewed, >= 1000 (default ${DEFAULT_CHAOS_OPTIONS.leaseMs})
  --sweep-ms <n>       lease-sweeper interval of the ledger (default ${DEFAULT_CHAOS_OPTIONS.sweepIntervalMs})
  --fault-rate <p>     share of ticket creates that save, then answer too late (default ${DEFAULT_CHAOS_OPTIONS.faultRate})
  --timeout-ms <n>     give up after this long (default ${DEFAULT_CHAOS_OPTIONS.timeoutMs})
  --help               this text`;

/**
 * Parses the flags of `npm run demo:chaos` (strict: unknown flags are errors).
 * @throws Error naming the flag when a value is out of range.
 */
export function parseChaosArgs(argv: readonly string[]): { options: ChaosOptions; help: boolean } {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      seed: { type: 'string' },
      workers: { type: 'string' },
      limit: { type: 'string' },
      'kill-rate': { type: 'string' },
      'min-kills': { type: 'string' },
      'lease-ms': { type: 'string' },
      'sweep-ms': { type: 'string' },
      'fault-rate': { type: 'string' },
      'timeout-ms': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const d = DEFAULT_CHAOS_OPTIONS;
  const options: ChaosOptions = {
    ...d,
    seed: integer('seed', values.seed, d.seed, 0),
    workers: integer('workers', values.workers, d.workers, 1),
    limit: values.limit === undefined ? undefined : integer('limit', values.limit, 0, 1),
    killRate: probability('kill-rate', values['kill-rate'], d.killRate),
    minKillsPerPoint: integer('min-kills', values['min-kills'], d.minKillsPerPoint, 0),
    leaseMs: integer('lease-ms', values['lease-ms'], d.leaseMs, 1000),
    sweepIntervalMs: integer('sweep-ms', values['sweep-ms'], d.sweepIntervalMs, 10),
    faultRate: probability('fault-rate', values['fault-rate'], d.faultRate),
    timeoutMs: integer('timeout-ms', values['timeout-ms'], d.timeoutMs, 1000),
  };
  if (options.ticketTimeoutMs >= options.leaseMs)
    throw new Error('--lease-ms must exceed the ticket timeout');
  return { options, help: values.help };
}

function integer(flag: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min)
    throw new Error(`--${flag} must be an integer >= ${min}, got ${raw}`);
  return n;
}

function probability(flag: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const p = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) {
    throw new Error(`--${flag} must be a number from 0 to 1, got ${raw}`);
  }
  return p;
}
