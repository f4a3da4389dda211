import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { TARGETS, type TargetId } from './targets.js';

/** Settings of one `npm run bench:http` run. Durations in milliseconds. */
export interface HttpBenchOptions {
  /** Targets measured, in table order (default: all of {@link TARGETS}). */
  readonly targets: readonly TargetId[];
  /** Rounds; each round runs every target once, in an order that rotates between rounds. */
  readonly rounds: number;
  /** Measured time of one target in one round, ms. */
  readonly roundMs: number;
  /** Unmeasured warm-up before each measured round (same connections), ms. */
  readonly warmupMs: number;
  /** Upper bound on operations of one measured round (the time bound usually ends it first). */
  readonly maxOpsPerRound: number;
  /** HTTP connections of the load generator, each one closed-loop client. */
  readonly connections: number;
  /** Completed operations (keys) that the duplicate / replay targets repeat. */
  readonly dupKeys: number;
  /** PostgreSQL URL of a user that may create databases; every server gets a fresh one. */
  readonly pgUrl: string;
  /** Redis of the @node-idempotency baseline. */
  readonly redisUrl: string;
  /** File the results are appended to, or null to print only. */
  readonly results: string | null;
  /** Keep the temporary directory with the servers' logs (and PGlite data) after a good run. */
  readonly keepLogs: boolean;
  /**
   * Entry point (`…/dist/server/main.js`) of a second ledger build, or null: every ledger target
   * then also runs on it as `<id>.a`, in the same interleaved rounds (A/B of a change).
   */
  readonly ledgerA: string | null;
}

/** Usage text of the flags (environment variables in brackets). */
export const HTTP_BENCH_USAGE = `npm run bench:http -- [flags]
  --rounds 5            rounds; every target runs once per round, order rotating [BENCH_HTTP_ROUNDS]
  --seconds 3           measured seconds per target and round [BENCH_HTTP_SECONDS]
  --warmup 1            unmeasured seconds before each measured round, 3× in the first round
                        (the servers' JIT warms up) [BENCH_HTTP_WARMUP]
  --max-ops 500000      bound on operations per measured round
  --connections 32      load-generator connections (closed loop, one request in flight each)
  --dup-keys 512        completed keys that duplicate/replay targets repeat
  --targets a,b         only these targets (ids: ${TARGETS.map((t) => t.id).join(', ')})
  --pg-url URL          PostgreSQL admin URL on loopback (default $LEDGER_BENCH_PG_URL or
                        postgres://postgres@127.0.0.1:5432/postgres)
  --redis-url URL       Redis on loopback (default redis://127.0.0.1:6379)
  --results FILE        append the results here (default bench/RESULTS.md)
  --no-record           print only
  --keep-logs           keep the servers' logs (printed path) after a successful run too
  --ledger-a MAIN       A/B: also run every selected ledger target on this build's entry point
                        (e.g. /path/a/dist/server/main.js), as target <id>.a in the same rounds
  --help                this text`;

const DEFAULT_RESULTS = fileURLToPath(new URL('../../../bench/RESULTS.md', import.meta.url));
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]', '::1'];

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got "${raw}"`);
  return n;
}

/** Refuses any URL whose host is not on this machine: the benchmark loads loopback only. */
function loopbackUrl(name: string, raw: string): string {
  const host = new URL(raw).hostname;
  if (!LOOPBACK.includes(host) && !host.startsWith('127.')) {
    throw new Error(`--${name} must point at a loopback address (127.0.0.0/8, ::1), got "${host}"`);
  }
  return raw;
}

function targetList(raw: string | undefined): TargetId[] {
  const all = TARGETS.map((t) => t.id);
  if (raw === undefined) return all;
  const picked = raw.split(',').map((s) => s.trim());
  const unknown = picked.filter((p) => !all.includes(p as TargetId));
  if (unknown.length) throw new Error(`--targets: unknown ${unknown.join(', ')}; known: ${all.join(', ')}`);
  return all.filter((id) => picked.includes(id));
}

/**
 * Parses the flags of {@link HTTP_BENCH_USAGE}; flags win over the environment variables.
 * @throws Error naming the flag at fault (also for unknown flags and non-loopback URLs).
 */
export function parseHttpBenchOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): HttpBenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      'max-ops': { type: 'string' },
      connections: { type: 'string' },
      'dup-keys': { type: 'string' },
      targets: { type: 'string' },
      'pg-url': { type: 'string' },
      'redis-url': { type: 'string' },
      results: { type: 'string' },
      'no-record': { type: 'boolean' },
      'keep-logs': { type: 'boolean' },
      'ledger-a': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return 'help';
  return {
    targets: targetList(values.targets ?? env['BENCH_HTTP_TARGETS']),
    rounds: Math.round(positive('rounds', values.rounds ?? env['BENCH_HTTP_ROUNDS'], 5)),
    roundMs: positive('seconds', values.seconds ?? env['BENCH_HTTP_SECONDS'], 3) * 1000,
    warmupMs: positive('warmup', values.warmup ?? env['BENCH_HTTP_WARMUP'], 1) * 1000,
    maxOpsPerRound: Math.round(positive('max-ops', values['max-ops'], 500_000)),
    connections: Math.round(positive('connections', values.connections, 32)),
    dupKeys: Math.round(positive('dup-keys', values['dup-keys'], 512)),
    pgUrl: loopbackUrl(
      'pg-url',
      values['pg-url'] ?? env['LEDGER_BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres',
    ),
    redisUrl: loopbackUrl('redis-url', values['redis-url'] ?? 'redis://127.0.0.1:6379'),
    results: values['no-record'] ? null : (values.results ?? DEFAULT_RESULTS),
    keepLogs: values['keep-logs'] ?? false,
    ledgerA: values['ledger-a'] ? resolve(values['ledger-a']) : null,
  };
}
