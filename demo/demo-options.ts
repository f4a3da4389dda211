import { parseArgs } from 'node:util';
import { DEFAULT_DEMO_OPTIONS, type DemoOptions } from './demo-run.js';

/** The parsed command line of `npm run demo`. */
export interface DemoCommandLine {
  readonly options: DemoOptions;
  /** Talk to this running ledger instead of starting one in-process. */
  readonly ledgerUrl?: string;
  /** Keep the ledger and the ticket system up after the summary, until Ctrl-C. */
  readonly keepOpen: boolean;
  readonly help: boolean;
}

/** Usage text for `--help`. */
export const DEMO_USAGE = `Usage: npm run demo -- [options]

  --seed <n>          seed of every random choice (default ${DEFAULT_DEMO_OPTIONS.seed})
  --concurrency <n>   workers consuming the deliveries (default ${DEFAULT_DEMO_OPTIONS.concurrency})
  --fault-rate <p>    share of ticket creates that save, then answer after the timeout (default ${DEFAULT_DEMO_OPTIONS.faultRate})
  --lost-rate <p>     share of ticket creates that are lost, nothing saved (default ${DEFAULT_DEMO_OPTIONS.lostRate})
  --limit <n>         use at most n distinct intents (default: all the examples yield)
  --conflicts <n>     deliberately conflicting deliveries (default ${DEFAULT_DEMO_OPTIONS.conflicts})
  --timeout-ms <n>    worker's timeout for the ticket system (default ${DEFAULT_DEMO_OPTIONS.ticketTimeoutMs})
  --lease-ms <n>      lease asked for with each claim, >= 1000 (default ${DEFAULT_DEMO_OPTIONS.leaseMs})
  --ledger-url <url>  use a running ledger instead of starting one (also LEDGER_URL); its API key
                      in LEDGER_TOKEN (tenant *, roles worker, operator, auditor)
  --keep-open         keep both servers running after the summary, until Ctrl-C
  --help              this text`;

/**
 * Parses the demo's flags with node:util parseArgs (strict: unknown flags are errors).
 * @throws Error naming the flag when a value is not a number in its range.
 */
export function parseDemoArgs(argv: readonly string[]): DemoCommandLine {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      seed: { type: 'string' },
      concurrency: { type: 'string' },
      'fault-rate': { type: 'string' },
      'lost-rate': { type: 'string' },
      limit: { type: 'string' },
      conflicts: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'lease-ms': { type: 'string' },
      'ledger-url': { type: 'string' },
      'keep-open': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const d = DEFAULT_DEMO_OPTIONS;
  const options: DemoOptions = {
    seed: integer('seed', values.seed, d.seed, 0),
    concurrency: integer('concurrency', values.concurrency, d.concurrency, 1),
    faultRate: probability('fault-rate', values['fault-rate'], d.faultRate),
    lostRate: probability('lost-rate', values['lost-rate'], d.lostRate),
    limit: values.limit === undefined ? undefined : integer('limit', values.limit, 0, 1),
    conflicts: integer('conflicts', values.conflicts, d.conflicts, 0),
    ticketTimeoutMs: integer('timeout-ms', values['timeout-ms'], d.ticketTimeoutMs, 1),
    leaseMs: integer('lease-ms', values['lease-ms'], d.leaseMs, 1000),
  };
  if (options.faultRate + options.lostRate > 1)
    throw new Error('--fault-rate plus --lost-rate must be at most 1');
  if (options.leaseMs <= options.ticketTimeoutMs) throw new Error('--lease-ms must exceed --timeout-ms');
  return { options, ledgerUrl: values['ledger-url'], keepOpen: values['keep-open'], help: values.help };
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
