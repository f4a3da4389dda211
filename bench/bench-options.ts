import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONFIG, type StoreKind } from '../src/config/ledger-config.js';
import type { ScenarioKind } from './claim-scenarios.js';
import type { BenchPath } from './report.js';

/** Settings of one benchmark run, from the command line. Durations in seconds. */
export interface BenchOptions {
  readonly scenarios: readonly ScenarioKind[];
  readonly paths: readonly BenchPath[];
  /** Concurrent clients of every scenario. */
  readonly clients: number;
  /** Measured operations per scenario and path, or null to measure for `seconds`. */
  readonly ops: number | null;
  /** Measuring time per scenario and path, s (Infinity when only `ops` limits it). */
  readonly seconds: number;
  /** Warm-up of each path before each scenario, s. */
  readonly warmupSeconds: number;
  /** Rounds the measuring time is split into; rounds alternate the order of the paths. */
  readonly rounds: number;
  readonly stores: readonly StoreKind[];
  /** PostgreSQL URL of a user that may create databases; each run creates and drops its own. */
  readonly pgUrl: string;
  /** pg pool size of the ledger, and of the baseline. */
  readonly poolSize: number;
  /** Seeded, confirmed operations that duplicate claims repeat. */
  readonly dupKeys: number;
  /** File the results are appended to, or null to print only. */
  readonly results: string | null;
  /**
   * Run the projectors inside the ledger process while measuring (the default deployment does).
   * Off by default: they consume the appended events concurrently, in whichever phase happens to
   * run — the baseline's too — so they blur the comparison of the claim path itself.
   */
  readonly projector: boolean;
}

/** Usage text of the benchmark's flags. */
export const USAGE = `npm run bench:claims -- [flags]
  --clients 32           concurrent clients
  --seconds 5            measuring time per scenario and path (s)
  --warmup 1             warm-up per scenario and path (s)
  --rounds 2             split the measuring time into rounds alternating the paths
  --ops N                measure N operations per scenario and path instead of a time
  --store both           postgres | pglite | both
  --pg-url URL           PostgreSQL admin URL (default $LEDGER_BENCH_PG_URL, $LEDGER_TEST_PG_ADMIN_URL
                         or postgres://postgres@127.0.0.1:5432/postgres); a fresh database per run
  --pool 20              pg pool size of the ledger and of the baseline
  --dup-keys 1024        confirmed operations the duplicate claims repeat
  --scenarios new,duplicate,cycle,one-step
                         one-step: claim with startStep + confirm with completeStep (2 requests;
                         over HTTP through the SDK's runOnce with firstStep)
  --paths baseline,in-process,http
                         http: from a separate load-generator process (bench/http/load-generator.ts)
  --results FILE         append the figures here (default bench/RESULTS.md)
  --projector off        on: run the projectors in the ledger process while measuring
  --no-record            print only
  --help                 this text`;

const SCENARIOS: readonly ScenarioKind[] = ['new', 'duplicate', 'cycle', 'one-step'];
const PATHS: readonly BenchPath[] = ['baseline', 'in-process', 'http'];
const DEFAULT_RESULTS = fileURLToPath(new URL('../../bench/RESULTS.md', import.meta.url));

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${raw}"`);
  return n;
}

function list<T extends string>(name: string, raw: string | undefined, allowed: readonly T[]): T[] {
  if (raw === undefined) return [...allowed];
  const picked = raw.split(',').map((s) => s.trim());
  if (picked.some((p) => !allowed.includes(p as T))) {
    throw new Error(`--${name} takes a comma-separated list of ${allowed.join(', ')}`);
  }
  return allowed.filter((a) => picked.includes(a));
}

/**
 * Parses the benchmark's flags (see {@link USAGE}).
 * @throws Error naming the flag at fault (also for unknown flags).
 */
export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      clients: { type: 'string' },
      ops: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      store: { type: 'string' },
      'pg-url': { type: 'string' },
      pool: { type: 'string' },
      'dup-keys': { type: 'string' },
      scenarios: { type: 'string' },
      paths: { type: 'string' },
      results: { type: 'string' },
      projector: { type: 'string' },
      'no-record': { type: 'boolean' },
    },
  });
  const store = values.store ?? 'both';
  if (!['postgres', 'pglite', 'both'].includes(store)) {
    throw new Error(`--store must be postgres, pglite or both, got "${store}"`);
  }
  const projector = values.projector ?? 'off';
  if (projector !== 'on' && projector !== 'off')
    throw new Error(`--projector must be on or off, got "${projector}"`);
  const ops = values.ops === undefined ? null : Math.round(positive('ops', values.ops, 1));
  return {
    scenarios: list('scenarios', values.scenarios, SCENARIOS),
    paths: list('paths', values.paths, PATHS),
    clients: Math.round(positive('clients', values.clients, 32)),
    ops,
    // With --ops and no --seconds, the count alone ends a scenario.
    seconds: positive('seconds', values.seconds, ops === null ? 5 : Number.POSITIVE_INFINITY),
    warmupSeconds: positive('warmup', values.warmup, 1),
    rounds: Math.round(positive('rounds', values.rounds, 2)),
    stores: store === 'both' ? ['postgres', 'pglite'] : [store as StoreKind],
    pgUrl:
      values['pg-url'] ??
      process.env['LEDGER_BENCH_PG_URL'] ??
      process.env['LEDGER_TEST_PG_ADMIN_URL'] ??
      'postgres://postgres@127.0.0.1:5432/postgres',
    poolSize: Math.round(positive('pool', values.pool, DEFAULT_CONFIG.poolSize)),
    dupKeys: Math.round(positive('dup-keys', values['dup-keys'], 1024)),
    results: values['no-record'] ? null : (values.results ?? DEFAULT_RESULTS),
    projector: projector === 'on',
  };
}

/** How this run was started, for RESULTS.md: `npm run bench:claims -- …` or `node dist/…`. */
export function commandLine(argv: readonly string[]): string {
  const args = argv.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
  const script = process.env['npm_lifecycle_event'];
  if (script) return `npm run ${script}${args ? ` -- ${args}` : ''}`;
  return `node dist/bench/claims.bench.js${args ? ` ${args}` : ''}`;
}
